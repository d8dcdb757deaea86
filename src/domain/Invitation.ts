import { Schema } from "effect"
import { UserId, WorkspaceId } from "./Ids.js"
import { Timestamp } from "./Timestamp.js"
import { UserCreate } from "./User.js"

export const InvitationId = Schema.UUID.pipe(Schema.brand("InvitationId"))
export type InvitationId = typeof InvitationId.Type

/** Invitations make admins and annotators; owners are made by an owner (`POST /api/v1/users`). */
export const InvitedRole = Schema.Literal("admin", "annotator")
export type InvitedRole = typeof InvitedRole.Type

export const INVITATION_DEFAULT_HOURS = 7 * 24
export const INVITATION_MAX_HOURS = 30 * 24

export const InvitationCreate = Schema.Struct({
  role: InvitedRole,
  workspace_ids: Schema.Array(WorkspaceId).pipe(Schema.minItems(1), Schema.maxItems(100)),
  /** How long the link stays valid: 1 hour to 30 days, 7 days when left out. */
  expires_in_hours: Schema.optional(
    Schema.Int.pipe(Schema.greaterThanOrEqualTo(1), Schema.lessThanOrEqualTo(INVITATION_MAX_HOURS))
  )
}).annotations({ identifier: "InvitationCreate" })
export type InvitationCreate = typeof InvitationCreate.Type

export const InvitationWorkspace = Schema.Struct({ id: WorkspaceId, name: Schema.String })
  .annotations({ identifier: "InvitationWorkspace" })

/** A pending invitation, as its inviter and the owners see it. The token is not kept: only its digest is. */
export const Invitation = Schema.Struct({
  id: InvitationId,
  role: InvitedRole,
  workspaces: Schema.Array(InvitationWorkspace),
  created_by: Schema.Struct({ id: UserId, username: Schema.String }),
  inserted_at: Timestamp,
  expires_at: Timestamp
}).annotations({ identifier: "Invitation" })
export type Invitation = typeof Invitation.Type

/**
 * The answer that creates an invitation, the only one that carries its token. `url` is the page that accepts it,
 * under the server's base URL (`/invite?token=…`): prefix it with the server's origin to share it.
 */
export const CreatedInvitation = Schema.Struct({
  ...Invitation.fields,
  token: Schema.String,
  url: Schema.String
}).annotations({ identifier: "CreatedInvitation" })
export type CreatedInvitation = typeof CreatedInvitation.Type

export const InvitationToken = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))

/** What the invitation page shows before the invited person chooses a username and password. */
export const InvitationLookup = Schema.Struct({
  role: InvitedRole,
  workspaces: Schema.Array(Schema.String),
  invited_by: Schema.String,
  expires_at: Timestamp
}).annotations({ identifier: "InvitationLookup" })
export type InvitationLookup = typeof InvitationLookup.Type

export const InvitationAccept = Schema.Struct({
  token: InvitationToken,
  username: UserCreate.fields.username,
  password: UserCreate.fields.password,
  first_name: UserCreate.fields.first_name,
  last_name: UserCreate.fields.last_name
}).annotations({ identifier: "InvitationAccept" })
export type InvitationAccept = typeof InvitationAccept.Type

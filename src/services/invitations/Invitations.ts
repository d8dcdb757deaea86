/**
 * Invitation links. Owners invite admins and annotators into any workspaces; admins invite annotators into the
 * workspaces they belong to (Argilla lets only owners create users: a Gloss decision, so that a team's lead can
 * onboard annotators; docs/explanation/security.md). A link's token is 32 random bytes, answered once; the
 * database keeps its SHA-256 digest. Looking up or accepting a token that is unknown, used, revoked or expired
 * answers the same 404, so the answer tells nothing about which.
 */
import * as crypto from "node:crypto"
import { Effect, Option } from "effect"
import { GlossConfig } from "../../Config.js"
import type { Token } from "../../domain/Auth.js"
import { NotFound } from "../../domain/Errors.js"
import type { WorkspaceId } from "../../domain/Ids.js"
import {
  type CreatedInvitation,
  type Invitation,
  INVITATION_DEFAULT_HOURS,
  type InvitationAccept,
  type InvitationCreate,
  InvitationId,
  type InvitationLookup
} from "../../domain/Invitation.js"
import type { User } from "../../domain/User.js"
import { Tokens } from "../auth/Tokens.js"
import { now } from "../clock.js"
import { Database } from "../database/Database.js"
import { newId } from "../ids.js"
import { Policy } from "../Policy.js"
import { Users } from "../users/Users.js"
import { Workspaces } from "../workspaces/Workspaces.js"
import { WorkspacesRepo } from "../workspaces/WorkspacesRepo.js"
import { type InvitationWorkspaceRow, InvitationsRepo, type PendingRow } from "./InvitationsRepo.js"

const tokenDigest = (token: string) => crypto.createHash("sha256").update(token, "utf8").digest("hex")

/** The one answer for every token that does not work. */
const noSuchInvitation = () => new NotFound({ detail: "This invitation does not exist, was used or revoked, or has expired" })

const HOUR = 60 * 60 * 1000

export class Invitations extends Effect.Service<Invitations>()("Gloss/Invitations", {
  effect: Effect.gen(function*() {
    const repo = yield* InvitationsRepo
    const workspacesRepo = yield* WorkspacesRepo
    const workspaces = yield* Workspaces
    const users = yield* Users
    const policy = yield* Policy
    const db = yield* Database
    const tokens = yield* Tokens
    const { server } = yield* GlossConfig

    const toInvitation = (row: PendingRow, rows: ReadonlyArray<InvitationWorkspaceRow>): Invitation => ({
      id: row.id,
      role: row.role,
      workspaces: rows.filter((w) => w.invitation_id === row.id).map(({ id, name }) => ({ id, name })),
      created_by: { id: row.created_by, username: row.inviter },
      inserted_at: row.inserted_at,
      expires_at: row.expires_at
    })

    /**
     * Whether `actor` may see and revoke `invitation`: owners every one; admins those into workspaces that are all
     * theirs (what they could have made themselves), so that none shows them a workspace they are not in.
     */
    const visibleTo = (actor: User, invitation: Invitation) =>
      actor.role === "owner"
        ? Effect.succeed(true)
        : invitation.workspaces.length === 0
        ? Effect.succeed(false)
        : Effect.map(
          Effect.forEach(invitation.workspaces, (w) => policy.can(actor, "invitations.create", w.id)),
          (allowed) => allowed.every(Boolean)
        )

    const create = Effect.fn("Invitations.create")(function*(actor: User, input: InvitationCreate) {
      if (input.role === "admin") yield* policy.require(actor, "invitations.inviteAdmins")
      const ids = [...new Set(input.workspace_ids)]
      for (const id of ids) {
        yield* policy.require(actor, "invitations.create", id)
        yield* workspacesRepo.findById(id).pipe(
          Effect.flatMap(Option.match({ onNone: () => Effect.fail(NotFound.byId("Workspace", id)), onSome: () => Effect.void }))
        )
      }
      const at = yield* now
      const token = crypto.randomBytes(32).toString("base64url")
      const id = InvitationId.make(newId())
      const expiresAt = new Date(at.getTime() + (input.expires_in_hours ?? INVITATION_DEFAULT_HOURS) * HOUR)
      yield* db.write(repo.insert({
        id,
        token_digest: tokenDigest(token),
        role: input.role,
        created_by: actor.id,
        inserted_at: at,
        expires_at: expiresAt,
        used_at: null,
        used_by: null,
        revoked_at: null
      }, ids))
      const row = yield* repo.findPendingById(id, at)
      if (Option.isNone(row)) return yield* Effect.dieMessage("The invitation just created is not pending")
      const created: CreatedInvitation = {
        ...toInvitation(row.value, yield* repo.workspacesOf([id])),
        token,
        url: `${server.baseUrl}/invite?token=${token}`
      }
      return created
    })

    const pendingVisibleTo = (actor: User) =>
      Effect.gen(function*() {
        const rows = yield* repo.listPending(yield* now)
        const workspaceRows = yield* repo.workspacesOf(rows.map((row) => row.id))
        return yield* Effect.filter(rows.map((row) => toInvitation(row, workspaceRows)), (i) => visibleTo(actor, i))
      })

    const list = Effect.fn("Invitations.list")(function*(actor: User) {
      yield* policy.require(actor, "invitations.list")
      return yield* pendingVisibleTo(actor)
    })

    const revoke = Effect.fn("Invitations.revoke")(function*(actor: User, id: InvitationId) {
      yield* policy.require(actor, "invitations.list")
      const row = yield* repo.findPendingById(id, yield* now)
      const invitation = Option.isSome(row) ? toInvitation(row.value, yield* repo.workspacesOf([id])) : undefined
      // Not shown to this admin: as unknown as an id that does not exist.
      if (invitation === undefined || !(yield* visibleTo(actor, invitation))) return yield* NotFound.byId("Invitation", id)
      if (!(yield* db.write(repo.revoke(id, yield* now)))) return yield* NotFound.byId("Invitation", id)
      return invitation
    })

    const pendingByToken = (token: string) =>
      Effect.gen(function*() {
        const row = yield* repo.findPendingByDigest(tokenDigest(token), yield* now)
        if (Option.isNone(row)) return yield* noSuchInvitation()
        return toInvitation(row.value, yield* repo.workspacesOf([row.value.id]))
      })

    const lookup = Effect.fn("Invitations.lookup")(function*(token: string) {
      const invitation = yield* pendingByToken(token)
      const answer: InvitationLookup = {
        role: invitation.role,
        workspaces: invitation.workspaces.map((w) => w.name),
        invited_by: invitation.created_by.username,
        expires_at: invitation.expires_at
      }
      return answer
    })

    /**
     * Creates the user, gives them the invitation's workspaces and marks it used, in one transaction: a taken
     * username (409) leaves the invitation unused, and of two accepts at once only one claims it (the other's
     * user is rolled back, and it gets the 404 of a used invitation).
     */
    const accept = Effect.fn("Invitations.accept")(function*(input: InvitationAccept) {
      const invitation = yield* pendingByToken(input.token)
      const user = yield* db.write(Effect.gen(function*() {
        const created = yield* users.createTrusted({
          first_name: input.first_name,
          last_name: input.last_name,
          username: input.username,
          role: invitation.role,
          password: input.password
        })
        if (!(yield* repo.claim(invitation.id, created.id, yield* now))) return yield* noSuchInvitation()
        yield* Effect.forEach(invitation.workspaces, (w) => addMember(w.id, created.id), { discard: true })
        return created
      }))
      const answer: Token = { access_token: yield* tokens.issue(user), token_type: "bearer" }
      return answer
    })

    /** A workspace deleted since the invitation was made is skipped: the rest of the invitation still holds. */
    const addMember = (workspace: WorkspaceId, user: User["id"]) =>
      workspaces.addUserTrusted(workspace, user).pipe(
        Effect.asVoid,
        Effect.catchTags({
          NotFound: () => Effect.void,
          Conflict: () => Effect.void,
          Unprocessable: (error) => Effect.die(error)
        })
      )

    return { create, list, revoke, lookup, accept } as const
  }),
  dependencies: [
    InvitationsRepo.Default,
    WorkspacesRepo.Default,
    Workspaces.Default,
    Users.Default,
    Policy.Default,
    Database.Default,
    Tokens.Default
  ]
}) {}

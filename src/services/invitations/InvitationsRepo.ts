import { SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { UserId, WorkspaceId } from "../../domain/Ids.js"
import { InvitationId, InvitedRole } from "../../domain/Invitation.js"
import { DbTimestamp } from "../../codecs/columns.js"
import { Database } from "../database/Database.js"

export const InvitationRow = Schema.Struct({
  id: InvitationId,
  /** Hex SHA-256 of the link's token, what a token is looked up by; the token itself is never stored. */
  token_digest: Schema.String,
  role: InvitedRole,
  created_by: UserId,
  inserted_at: DbTimestamp,
  expires_at: DbTimestamp,
  used_at: Schema.NullOr(DbTimestamp),
  used_by: Schema.NullOr(UserId),
  revoked_at: Schema.NullOr(DbTimestamp)
})
export type InvitationRow = typeof InvitationRow.Type

/** A pending invitation's row with its inviter's username. */
const PendingRow = Schema.Struct({ ...InvitationRow.fields, inviter: Schema.String })
export type PendingRow = typeof PendingRow.Type

const InvitationWorkspaceRow = Schema.Struct({ invitation_id: InvitationId, id: WorkspaceId, name: Schema.String })
export type InvitationWorkspaceRow = typeof InvitationWorkspaceRow.Type

export class InvitationsRepo extends Effect.Service<InvitationsRepo>()("Gloss/InvitationsRepo", {
  effect: Effect.gen(function*() {
    const { sql } = yield* Database

    const insert = SqlSchema.void({
      Request: InvitationRow,
      execute: (row) => sql`insert into invitations ${sql.insert(row)}`
    })
    const insertWorkspaces = SqlSchema.void({
      Request: Schema.Array(Schema.Struct({ invitation_id: InvitationId, workspace_id: WorkspaceId })),
      execute: (rows) => sql`insert into invitations_workspaces ${sql.insert(rows)}`
    })
    const pendingWhere = (now: string | Date) =>
      sql`i.used_at is null and i.revoked_at is null and i.expires_at > ${now}`
    /** Invitations that still work at `now`, oldest first, with their inviter's username. */
    const listPending = SqlSchema.findAll({
      Request: DbTimestamp,
      Result: PendingRow,
      execute: (now) =>
        sql`select i.*, u.username as inviter from invitations i join users u on u.id = i.created_by
            where ${pendingWhere(now)} order by i.inserted_at, i.id`
    })
    const findPendingById = SqlSchema.findOne({
      Request: Schema.Struct({ id: InvitationId, now: DbTimestamp }),
      Result: PendingRow,
      execute: ({ id, now }) =>
        sql`select i.*, u.username as inviter from invitations i join users u on u.id = i.created_by
            where i.id = ${id} and ${pendingWhere(now)}`
    })
    const findPendingByDigest = SqlSchema.findOne({
      Request: Schema.Struct({ digest: Schema.String, now: DbTimestamp }),
      Result: PendingRow,
      execute: ({ digest, now }) =>
        sql`select i.*, u.username as inviter from invitations i join users u on u.id = i.created_by
            where i.token_digest = ${digest} and ${pendingWhere(now)}`
    })
    /** The workspaces of these invitations that still exist, by name. */
    const workspacesOf = SqlSchema.findAll({
      Request: Schema.Array(InvitationId),
      Result: InvitationWorkspaceRow,
      execute: (ids) =>
        sql`select iw.invitation_id, w.id, w.name from invitations_workspaces iw
            join workspaces w on w.id = iw.workspace_id
            where ${sql.in("iw.invitation_id", ids)} order by w.name`
    })
    const revoke = SqlSchema.findOne({
      Request: Schema.Struct({ id: InvitationId, now: DbTimestamp }),
      Result: Schema.Struct({ id: InvitationId }),
      execute: ({ id, now }) =>
        sql`update invitations set revoked_at = ${now}
            where id = ${id} and used_at is null and revoked_at is null returning id`
    })
    /**
     * Marks a pending invitation used by `user`; `None` when it no longer is pending. One statement, so of two
     * accepts at once only one finds it pending: PostgreSQL re-checks the condition on the row the first one
     * changed, SQLite has one writer.
     */
    const claim = SqlSchema.findOne({
      Request: Schema.Struct({ id: InvitationId, user: UserId, now: DbTimestamp }),
      Result: Schema.Struct({ id: InvitationId }),
      execute: ({ id, now, user }) =>
        sql`update invitations set used_at = ${now}, used_by = ${user}
            where id = ${id} and used_at is null and revoked_at is null and expires_at > ${now} returning id`
    })

    return {
      insert: (row: InvitationRow, workspaceIds: ReadonlyArray<WorkspaceId>) =>
        Effect.zipRight(
          insert(row),
          insertWorkspaces(workspaceIds.map((workspace_id) => ({ invitation_id: row.id, workspace_id })))
        ).pipe(Effect.orDie),
      listPending: (now: Date) => listPending(now).pipe(Effect.orDie),
      findPendingById: (id: InvitationId, now: Date) => findPendingById({ id, now }).pipe(Effect.orDie),
      findPendingByDigest: (digest: string, now: Date) => findPendingByDigest({ digest, now }).pipe(Effect.orDie),
      workspacesOf: (ids: ReadonlyArray<InvitationId>) =>
        ids.length === 0 ? Effect.succeed([]) : workspacesOf(ids).pipe(Effect.orDie),
      revoke: (id: InvitationId, now: Date) => revoke({ id, now }).pipe(Effect.map(Option.isSome), Effect.orDie),
      claim: (id: InvitationId, user: UserId, now: Date) =>
        claim({ id, user, now }).pipe(Effect.map(Option.isSome), Effect.orDie)
    } as const
  }),
  dependencies: [Database.Default]
}) {}

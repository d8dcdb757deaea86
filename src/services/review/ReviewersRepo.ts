/**
 * The `workspace_reviewers` table (migration 0017_review): the members of a workspace given review rights there.
 * A row refers to the membership, so it goes when the member leaves the workspace.
 */
import { SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { UserId, WorkspaceId } from "../../domain/Ids.js"
import { DbTimestamp } from "../../codecs/columns.js"
import { Database } from "../database/Database.js"

export const ReviewerRow = Schema.Struct({ workspace_id: WorkspaceId, user_id: UserId, inserted_at: DbTimestamp })
export type ReviewerRow = typeof ReviewerRow.Type

export const NamedReviewerRow = Schema.Struct({ ...ReviewerRow.fields, username: Schema.String })
export type NamedReviewerRow = typeof NamedReviewerRow.Type

const Key = Schema.Struct({ workspace_id: WorkspaceId, user_id: UserId })
type Key = typeof Key.Type

export class ReviewersRepo extends Effect.Service<ReviewersRepo>()("Gloss/ReviewersRepo", {
  effect: Effect.gen(function*() {
    const { sql } = yield* Database

    const named = sql`select r.workspace_id, r.user_id, r.inserted_at, u.username from workspace_reviewers r
      join users u on u.id = r.user_id`
    const list = SqlSchema.findAll({
      Request: WorkspaceId,
      Result: NamedReviewerRow,
      execute: (workspaceId) => sql`${named} where r.workspace_id = ${workspaceId} order by r.inserted_at, u.username`
    })
    const find = SqlSchema.findOne({
      Request: Key,
      Result: NamedReviewerRow,
      execute: ({ user_id, workspace_id }) => sql`${named} where r.workspace_id = ${workspace_id} and r.user_id = ${user_id}`
    })
    const insert = SqlSchema.void({
      Request: ReviewerRow,
      execute: (row) => sql`insert into workspace_reviewers ${sql.insert(row)} on conflict do nothing`
    })
    const remove = SqlSchema.findOne({
      Request: Key,
      Result: Key,
      execute: ({ user_id, workspace_id }) =>
        sql`delete from workspace_reviewers where workspace_id = ${workspace_id} and user_id = ${user_id}
          returning workspace_id, user_id`
    })
    const workspacesOf = SqlSchema.findAll({
      Request: UserId,
      Result: Schema.Struct({ workspace_id: WorkspaceId }),
      execute: (userId) => sql`select workspace_id from workspace_reviewers where user_id = ${userId}`
    })

    return {
      list: (workspaceId: WorkspaceId) => list(workspaceId).pipe(Effect.orDie),
      find: (key: Key) => find(key).pipe(Effect.orDie),
      /** Adds the row unless it is there already (the first grant's time is kept). */
      insert: (row: ReviewerRow) => insert(row).pipe(Effect.orDie),
      remove: (key: Key) => remove(key).pipe(Effect.orDie),
      /** The workspaces where the user was given review rights. */
      workspacesOf: (userId: UserId) =>
        Effect.map(workspacesOf(userId), (rows) => rows.map((row) => row.workspace_id)).pipe(Effect.orDie)
    } as const
  }),
  dependencies: [Database.Default]
}) {}

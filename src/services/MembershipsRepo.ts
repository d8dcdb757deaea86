/**
 * The `workspaces_users` table: who is a member of which workspace. Beside `Policy.ts`, which reads it for every
 * "member" rule; `workspaces/` writes it (adding and removing users).
 */
import { SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { UserId, WorkspaceId } from "../domain/Ids.js"
import { DbTimestamp } from "../codecs/columns.js"
import { Database } from "./database/Database.js"

export const MembershipRow = Schema.Struct({
  id: Schema.UUID,
  workspace_id: WorkspaceId,
  user_id: UserId,
  inserted_at: DbTimestamp,
  updated_at: DbTimestamp
})

export const Membership = Schema.Struct({ workspace_id: WorkspaceId, user_id: UserId })

export class MembershipsRepo extends Effect.Service<MembershipsRepo>()("Gloss/MembershipsRepo", {
  effect: Effect.gen(function*() {
    const { sql } = yield* Database

    const isMember = SqlSchema.findOne({
      Request: Membership,
      Result: Schema.Struct({ user_id: UserId }),
      execute: ({ user_id, workspace_id }) =>
        sql`select user_id from workspaces_users where workspace_id = ${workspace_id} and user_id = ${user_id}`
    })
    /** `None` when the user already is a member. */
    const addMember = SqlSchema.findOne({
      Request: MembershipRow,
      Result: Schema.Struct({ id: Schema.UUID }),
      execute: (row) => sql`insert into workspaces_users ${sql.insert(row)} on conflict do nothing returning id`
    })
    const removeMember = SqlSchema.findOne({
      Request: Membership,
      Result: Schema.Struct({ id: Schema.UUID }),
      execute: ({ user_id, workspace_id }) =>
        sql`delete from workspaces_users where workspace_id = ${workspace_id} and user_id = ${user_id} returning id`
    })

    return {
      isMember: (membership: typeof Membership.Type) => isMember(membership).pipe(Effect.orDie),
      addMember: (row: typeof MembershipRow.Type) => addMember(row).pipe(Effect.orDie),
      removeMember: (membership: typeof Membership.Type) => removeMember(membership).pipe(Effect.orDie)
    } as const
  }),
  dependencies: [Database.Default]
}) {}

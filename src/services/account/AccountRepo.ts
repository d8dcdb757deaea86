import { SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { UserId, WorkspaceId } from "../../domain/Ids.js"
import { DbTimestamp } from "../../codecs/columns.js"
import { Database } from "../database/Database.js"
import { WorkspaceRow } from "../workspaces/WorkspacesRepo.js"

/** The writes of the account endpoints that the users' and workspaces' repositories have no statement for. */
export class AccountRepo extends Effect.Service<AccountRepo>()("Gloss/AccountRepo", {
  effect: Effect.gen(function*() {
    const { sql } = yield* Database

    const setApiKey = SqlSchema.findOne({
      Request: Schema.Struct({
        id: UserId,
        api_key_digest: Schema.String,
        api_key_sealed: Schema.NullOr(Schema.String),
        updated_at: DbTimestamp
      }),
      Result: Schema.Struct({ id: UserId }),
      execute: ({ id, ...changes }) => sql`update users set ${sql.update(changes)} where id = ${id} returning id`
    })
    /** `None` when the workspace does not exist; a name another workspace has is a unique violation. */
    const rename = SqlSchema.findOne({
      Request: Schema.Struct({ id: WorkspaceId, name: Schema.String, updated_at: DbTimestamp }),
      Result: WorkspaceRow,
      execute: ({ id, ...changes }) => sql`update workspaces set ${sql.update(changes)} where id = ${id} returning *`
    })

    return {
      setApiKey: (
        id: UserId,
        key: { readonly api_key_digest: string; readonly api_key_sealed: string | null },
        at: Date
      ) => setApiKey({ id, ...key, updated_at: at }).pipe(Effect.map(Option.isSome), Effect.orDie),
      renameWorkspace: (id: WorkspaceId, name: string, at: Date) =>
        rename({ id, name, updated_at: at }).pipe(Effect.orDie)
    } as const
  }),
  dependencies: [Database.Default]
}) {}

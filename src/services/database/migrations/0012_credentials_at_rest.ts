import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { GlossConfig } from "../../../Config.js"
import { apiKeyDigest, apiKeySealingKey } from "../../secrets/apiKeys.js"
import { seal } from "../../secrets/sealing.js"

/**
 * API keys leave the database in clear: `api_key` becomes `api_key_digest` (its unique index follows the column,
 * so nothing is rebuilt) and each existing key is replaced by its digest and a sealed copy (see secrets/apiKeys.ts).
 * Also the counters of failed sign-ins, shared by every process on the database (see auth/SignInLimits.ts).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`alter table users rename column api_key to api_key_digest`)
  yield* sql.onDialectOrElse({
    pg: () => sql.unsafe(`alter table users rename constraint users_api_key_key to users_api_key_digest_key`),
    orElse: () => Effect.void
  })
  yield* sql.unsafe(`alter table users add column api_key_sealed text`)

  const rows = yield* sql<{ id: string; api_key_digest: string }>`select id, api_key_digest from users`
  if (rows.length > 0) {
    // The server's configuration when it runs the migrations; `gloss db migrate` has only the environment.
    const config = yield* Effect.flatMap(
      Effect.serviceOption(GlossConfig),
      Option.match({ onSome: Effect.succeed, onNone: () => GlossConfig.load })
    )
    const key = yield* apiKeySealingKey(config)
    for (const { api_key_digest: apiKey, id } of rows) {
      yield* sql`update users set api_key_digest = ${apiKeyDigest(apiKey)}, api_key_sealed = ${seal(key, apiKey)}
                 where id = ${id}`
    }
  }

  // `subject` is `user:<username>` or `address:<client address>`; the window's start is in epoch milliseconds.
  yield* sql.unsafe(`
    create table sign_in_failures (
      subject text primary key,
      failures integer not null,
      window_started_at bigint not null
    )`)
  yield* sql.unsafe(`create index sign_in_failures_window on sign_in_failures (window_started_at)`)
})

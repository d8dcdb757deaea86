import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { columnTypes } from "../ddl.js"

/**
 * Webhook health: a webhook whose receiver keeps failing is backed off as a whole (`retry_at`: no delivery to it
 * before then; `probing_until`: one delivery is testing the receiver) and disabled after a number of consecutive
 * failures (`disabled_reason` says why; the owner re-enables it). `last_error` and `last_failure_at` are what the
 * API and the UI show about the latest failure.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const t = columnTypes(sql)
  yield* sql.unsafe(`alter table webhooks add column consecutive_failures integer not null default 0`)
  yield* sql.unsafe(`alter table webhooks add column retry_at ${t.timestamp}`)
  yield* sql.unsafe(`alter table webhooks add column probing_until ${t.timestamp}`)
  yield* sql.unsafe(`alter table webhooks add column last_failure_at ${t.timestamp}`)
  yield* sql.unsafe(`alter table webhooks add column last_error text`)
  yield* sql.unsafe(`alter table webhooks add column disabled_reason text`)
})

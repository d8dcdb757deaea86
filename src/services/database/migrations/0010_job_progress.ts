import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { columnTypes } from "../ddl.js"

/**
 * Jobs of the embedded queue keep how far they got (`progress`, JSON written by the running handler, null for jobs
 * that report nothing) and who started them (`started_by`, a user id: they may read the job's status).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const t = columnTypes(sql)
  yield* sql.unsafe(`alter table jobs add column progress ${t.json}`)
  yield* sql.unsafe(`alter table jobs add column started_by text`)
})

import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { columnTypes } from "../ddl.js"

/**
 * What `gloss migrate from-argilla` remembers of each Argilla deployment it copied from (`source` names it: the
 * database's location or the API's URL): `watermark`, the time of the last completed run, from which the next run
 * re-reads only what changed (less a safety margin); and `state`, JSON of the ids it created of the kinds a re-sync
 * deletes when Argilla no longer has them (users, workspaces, memberships, datasets, webhooks). Records and what
 * hangs off them are scoped by their dataset, so no id of theirs is kept here.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const t = columnTypes(sql)
  yield* sql.unsafe(`
    create table argilla_migrations (
      source text primary key,
      watermark ${t.timestamp},
      state ${t.json} not null,
      updated_at ${t.timestamp} not null
    )`)
})

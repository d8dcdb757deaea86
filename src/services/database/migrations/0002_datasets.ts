import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { columnTypes } from "../ddl.js"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const t = columnTypes(sql)
  // `restrict`: a workspace that still holds datasets cannot be deleted (the API answers 409), even in a race.
  yield* sql.unsafe(`
    create table datasets (
      id ${t.uuid} primary key,
      ${t.sequence}
      name text not null,
      guidelines text,
      allow_extra_metadata ${t.boolean} not null,
      status text not null check (status in ('draft', 'ready')),
      distribution ${t.json} not null,
      metadata ${t.json},
      workspace_id ${t.uuid} not null references workspaces (id) on delete restrict,
      last_activity_at ${t.timestamp} not null,
      inserted_at ${t.timestamp} not null,
      updated_at ${t.timestamp} not null,
      unique (workspace_id, name)
    )`)
  const owned = (table: string, columns: string) =>
    sql.unsafe(`
      create table ${table} (
        id ${t.uuid} primary key,
        ${t.sequence}
        name text not null,
        ${columns},
        dataset_id ${t.uuid} not null references datasets (id) on delete cascade,
        inserted_at ${t.timestamp} not null,
        updated_at ${t.timestamp} not null,
        unique (dataset_id, name)
      )`)
  yield* owned("fields", `title text not null, required ${t.boolean} not null, settings ${t.json} not null`)
  yield* owned(
    "questions",
    `title text not null, description text, required ${t.boolean} not null, settings ${t.json} not null`
  )
  yield* owned(
    "metadata_properties",
    `title text not null, settings ${t.json} not null, visible_for_annotators ${t.boolean} not null`
  )
  yield* owned("vectors_settings", `title text not null, dimensions integer not null`)
})

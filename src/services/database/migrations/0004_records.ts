import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { columnTypes } from "../ddl.js"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const t = columnTypes(sql)
  yield* sql.unsafe(`
    create table records (
      id ${t.uuid} primary key,
      ${t.sequence}
      dataset_id ${t.uuid} not null references datasets (id) on delete cascade,
      external_id text,
      fields ${t.json} not null,
      metadata ${t.json},
      status text not null check (status in ('pending', 'completed')),
      inserted_at ${t.timestamp} not null,
      updated_at ${t.timestamp} not null,
      unique (dataset_id, external_id)
    )`)
  yield* sql.unsafe(`create index records_dataset_status on records (dataset_id, status)`)
  yield* sql.unsafe(`
    create table responses (
      id ${t.uuid} primary key,
      record_id ${t.uuid} not null references records (id) on delete cascade,
      user_id ${t.uuid} not null references users (id) on delete cascade,
      "values" ${t.json},
      status text not null check (status in ('draft', 'submitted', 'discarded')),
      inserted_at ${t.timestamp} not null,
      updated_at ${t.timestamp} not null,
      unique (record_id, user_id)
    )`)
  yield* sql.unsafe(`create index responses_user on responses (user_id)`)
  yield* sql.unsafe(`
    create table suggestions (
      id ${t.uuid} primary key,
      record_id ${t.uuid} not null references records (id) on delete cascade,
      question_id ${t.uuid} not null references questions (id) on delete cascade,
      value ${t.json} not null,
      score ${t.json},
      agent text,
      type text check (type in ('model', 'human')),
      inserted_at ${t.timestamp} not null,
      updated_at ${t.timestamp} not null,
      unique (record_id, question_id)
    )`)
  // Vectors as little-endian float64 bytes (see DbVector): exact, compact, and read without parsing.
  yield* sql.unsafe(`
    create table vectors (
      id ${t.uuid} primary key,
      record_id ${t.uuid} not null references records (id) on delete cascade,
      vector_settings_id ${t.uuid} not null references vectors_settings (id) on delete cascade,
      value ${t.bytes} not null,
      inserted_at ${t.timestamp} not null,
      updated_at ${t.timestamp} not null,
      unique (record_id, vector_settings_id)
    )`)
  yield* sql.unsafe(`create index vectors_by_settings on vectors (vector_settings_id)`)
  // Who has answered in a dataset: the users listed by the progress endpoints.
  yield* sql.unsafe(`
    create table datasets_users (
      dataset_id ${t.uuid} not null references datasets (id) on delete cascade,
      user_id ${t.uuid} not null references users (id) on delete cascade,
      inserted_at ${t.timestamp} not null,
      updated_at ${t.timestamp} not null,
      primary key (dataset_id, user_id)
    )`)
})

import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { columnTypes } from "../ddl.js"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const t = columnTypes(sql)
  yield* sql.unsafe(`
    create table users (
      id ${t.uuid} primary key,
      first_name text not null,
      last_name text,
      username text not null unique,
      role text not null default 'annotator' check (role in ('owner', 'admin', 'annotator')),
      api_key text not null unique,
      password_hash text not null,
      inserted_at ${t.timestamp} not null,
      updated_at ${t.timestamp} not null
    )`)
  yield* sql.unsafe(`
    create table workspaces (
      id ${t.uuid} primary key,
      name text not null unique,
      inserted_at ${t.timestamp} not null,
      updated_at ${t.timestamp} not null
    )`)
  yield* sql.unsafe(`
    create table workspaces_users (
      id ${t.uuid} primary key,
      workspace_id ${t.uuid} not null references workspaces (id) on delete cascade,
      user_id ${t.uuid} not null references users (id) on delete cascade,
      inserted_at ${t.timestamp} not null,
      updated_at ${t.timestamp} not null,
      unique (workspace_id, user_id)
    )`)
  yield* sql.unsafe(`create index workspaces_users_user_id on workspaces_users (user_id)`)
})

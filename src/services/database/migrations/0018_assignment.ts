import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { columnTypes } from "../ddl.js"

/**
 * Assignment (`/api/gloss`, src/services/assignment/): who annotates which records and how each user's queue is made.
 *
 * - `queue_settings`: one row per dataset that has changed a default (no row: assigned first, inserted order,
 *   30-minute leases, not blind, no quota).
 * - `record_assignments`: a record given to a user. It refers to the user's membership of the dataset's workspace,
 *   so an assignment goes when its user leaves the workspace, as review rights do.
 * - `record_leases`: a pool record reserved for a user until `expires_at`. An expired lease counts for nothing, so
 *   nothing has to sweep them for the queue to be right; the next reservation in the dataset deletes them.
 * - `record_priorities`: a record's priority where one was set (0 otherwise).
 * - `queue_quotas`: one user's quota in one dataset, over the dataset's.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const t = columnTypes(sql)
  yield* sql.unsafe(`
    create table queue_settings (
      dataset_id ${t.uuid} primary key references datasets (id) on delete cascade,
      assigned text not null check (assigned in ('first', 'only')),
      queue_order text not null check (queue_order in ('inserted', 'shuffled')),
      lease_minutes integer not null,
      blind ${t.boolean} not null,
      quota integer,
      updated_at ${t.timestamp} not null
    )`)
  yield* sql.unsafe(`
    create table record_assignments (
      record_id ${t.uuid} not null references records (id) on delete cascade,
      user_id ${t.uuid} not null,
      dataset_id ${t.uuid} not null references datasets (id) on delete cascade,
      workspace_id ${t.uuid} not null,
      assigned_by ${t.uuid},
      inserted_at ${t.timestamp} not null,
      primary key (record_id, user_id),
      foreign key (workspace_id, user_id) references workspaces_users (workspace_id, user_id) on delete cascade
    )`)
  yield* sql.unsafe(`create index record_assignments_dataset_user on record_assignments (dataset_id, user_id)`)
  yield* sql.unsafe(`create index record_assignments_user on record_assignments (user_id)`)
  yield* sql.unsafe(`
    create table record_leases (
      record_id ${t.uuid} not null references records (id) on delete cascade,
      user_id ${t.uuid} not null references users (id) on delete cascade,
      dataset_id ${t.uuid} not null references datasets (id) on delete cascade,
      expires_at ${t.timestamp} not null,
      primary key (record_id, user_id)
    )`)
  yield* sql.unsafe(`create index record_leases_dataset on record_leases (dataset_id, expires_at)`)
  yield* sql.unsafe(`create index record_leases_user on record_leases (user_id)`)
  yield* sql.unsafe(`
    create table record_priorities (
      record_id ${t.uuid} primary key references records (id) on delete cascade,
      dataset_id ${t.uuid} not null references datasets (id) on delete cascade,
      priority integer not null
    )`)
  yield* sql.unsafe(`create index record_priorities_dataset on record_priorities (dataset_id)`)
  yield* sql.unsafe(`
    create table queue_quotas (
      dataset_id ${t.uuid} not null references datasets (id) on delete cascade,
      user_id ${t.uuid} not null references users (id) on delete cascade,
      quota integer not null,
      primary key (dataset_id, user_id)
    )`)
})

/**
 * Migrations, in order. They run at start-up (and with `gloss db migrate`); each runs once per database, recorded
 * in `effect_sql_migrations`. Never edit a migration that has been released: add a new one.
 */
import { Migrator } from "@effect/sql"
import m0001 from "./migrations/0001_users_and_workspaces.js"
import m0002 from "./migrations/0002_datasets.js"
import m0004 from "./migrations/0004_records.js"
import m0005 from "./migrations/0005_search.js"
import m0006 from "./migrations/0006_jobs.js"
import m0007 from "./migrations/0007_webhooks.js"

const loader = Migrator.fromRecord({
  "0001_users_and_workspaces": m0001,
  "0002_datasets": m0002,
  "0004_records": m0004,
  "0005_search": m0005,
  "0006_jobs": m0006,
  "0007_webhooks": m0007
})

export const runMigrations = Migrator.make({})({ loader })

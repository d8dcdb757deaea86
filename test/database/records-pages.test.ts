/**
 * A reindex and an export read every record of a dataset by keyset on the insertion order (`RecordsRepo.pageAfter`):
 * an offset read and dropped every record before its page (quadratic over a whole walk). Each
 * record once, in insertion order, with other datasets' records in between; and on SQLite a walk of the table in rowid
 * order, never a sort of the dataset's records for each page.
 */
import { SqlClient, Statement } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { DatasetId } from "../../src/domain/Ids.js"
import { Database, SqlLive } from "../../src/services/database/Database.js"
import { runMigrations } from "../../src/services/database/migrations.js"
import { RecordsRepo } from "../../src/services/records/RecordsRepo.js"
import { dialects, freshDatabase } from "../support/databases.js"

const RepoTest = (dialect: (typeof dialects)[number]) =>
  Layer.unwrapScoped(Effect.map(freshDatabase(dialect), ({ env }) =>
    RecordsRepo.Default.pipe(
      Layer.provideMerge(Database.Default),
      Layer.provideMerge(Layer.effectDiscard(runMigrations)),
      Layer.provideMerge(SqlLive),
      Layer.provideMerge(GlossConfig.fromRecord(env))
    )))

const A = DatasetId.make("01a2102b-399d-732e-875e-0000000000aa")
const B = DatasetId.make("01a2102b-399d-732e-875e-0000000000bb")

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(RepoTest(dialect), { excludeTestServices: true, timeout: 60_000 })("records by keyset", (it) => {
      it.effect("every record of a dataset once, in id order, with another dataset's records in between", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          // Rows only: no datasets around them (foreign keys off for these inserts).
          const insert = (dataset: DatasetId, n: number) =>
            sql`insert into records (id, dataset_id, external_id, fields, status, inserted_at, updated_at)
              values (${crypto.randomUUID()}, ${dataset}, ${`r${n}`}, '{}', 'pending', ${new Date().toISOString()}, ${new Date().toISOString()})`
          const rows = Effect.forEach(Array.from({ length: 25 }, (_, n) => n), (n) => Effect.zipRight(insert(A, n), insert(B, n)))
          if (dialect === "postgres") {
            yield* sql.withTransaction(Effect.zipRight(sql`set local session_replication_role = replica`, rows))
          } else {
            yield* sql`PRAGMA foreign_keys = OFF`
            yield* rows
            yield* sql`PRAGMA foreign_keys = ON`
          }
          const repo = yield* RecordsRepo
          const seen: Array<string | null> = []
          for (let after: number | undefined, pages = 0; pages < 10; pages++) {
            const { next, rows } = yield* repo.pageAfter(A, after, 7)
            seen.push(...rows.map((row) => row.external_id))
            if (next === undefined) break
            after = next
          }
          expect(seen).toEqual(Array.from({ length: 25 }, (_, n) => `r${n}`))
          // A dataset of exactly a page: the page after the last is empty.
          const full = yield* repo.pageAfter(B, undefined, 25)
          expect(full.rows.map((row) => row.external_id)).toEqual(Array.from({ length: 25 }, (_, n) => `r${n}`))
          expect(full.next).toBeDefined()
          expect(yield* repo.pageAfter(B, full.next, 25)).toEqual({ rows: [], next: undefined })
        }))

      if (dialect === "sqlite") {
        it.effect("SQLite walks the table in rowid order, without sorting the dataset's records", () =>
          Effect.gen(function*() {
            const sql = yield* SqlClient.SqlClient
            const repo = yield* RecordsRepo
            // The statements the repository runs, caught as they run, then planned.
            const ran: Array<readonly [string, ReadonlyArray<unknown>]> = []
            const catching = Statement.withTransformer((statement) => Effect.sync(() => (ran.push(statement.compile()), statement)))
            yield* catching(repo.pageAfter(A, undefined, 10))
            yield* catching(repo.pageAfter(A, 12, 10))
            const plans: Array<string> = []
            for (const [text, params] of ran) {
              const steps = yield* sql.unsafe<{ detail: string }>(`explain query plan ${text}`, params)
              plans.push(steps.map((step) => step.detail).join("; "))
            }
            expect(plans).toHaveLength(2)
            for (const plan of plans) {
              expect(plan).not.toMatch(/TEMP B-TREE|records_dataset_status/)
              expect(plan).toMatch(/^(SCAN records|SEARCH records USING INTEGER PRIMARY KEY \(rowid>\?\))$/)
            }
          }))
      }
    })
  })
}

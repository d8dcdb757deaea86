/**
 * The vector store's exact path: per vector settings, a matrix loaded from the `vectors` table on first use and
 * kept in memory (reading 100 000 vectors per query would cost ~300 ms; scanning them in memory ~20 ms). Writes in
 * this process drop the matrix; other processes' writes are noticed by a cheap check at most every few seconds.
 * Settings with `annFrom(dimensions)` vectors or more (annThreshold.ts) are not loaded: they are the ANN index's (a matrix of a million 384-dimensional
 * vectors would hold 1.5 GB).
 */
import type { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import type { VectorSettingsId } from "../../../domain/Ids.js"
import { normalise, type VectorMatrix } from "./math.js"

const RECHECK_MILLIS = 5_000

interface Entry {
  readonly matrix: VectorMatrix
  readonly stamp: string
  checkedAt: number
}

/** The settings' vectors in memory, or how many there are when they are too many for that. */
export type Loaded = { readonly _tag: "Matrix"; readonly matrix: VectorMatrix } | { readonly _tag: "Large"; readonly count: number }

export const makeMatrices = (sql: SqlClient.SqlClient, annFrom: (dimensions: number) => number) => {
  const entries = new Map<string, Entry>()

  const stampOf = (settingsId: VectorSettingsId) =>
    Effect.map(
      sql<{ n: number | string; latest: unknown }>`select count(*) as n, max(updated_at) as latest from vectors
        where vector_settings_id = ${settingsId}`,
      (rows) => JSON.stringify(rows[0] ?? null)
    )

  // Read in pages: 100 000 rows of 384 float64 values at once would hold ~300 MB of buffers at the same moment.
  const PAGE = 5_000

  const load = (settingsId: VectorSettingsId, dimensions: number) =>
    Effect.gen(function*() {
      const stamp = yield* stampOf(settingsId)
      const [counted] = yield* sql<{ n: number | string }>`select count(*) as n from vectors where vector_settings_id = ${settingsId}`
      const capacity = Number(counted?.n ?? 0)
      if (capacity >= annFrom(dimensions)) {
        entries.delete(settingsId)
        return { _tag: "Large", count: capacity } satisfies Loaded
      }
      const data = new Float32Array(capacity * dimensions)
      const ids: Array<string> = []
      let after: string | undefined
      for (;;) {
        // Keyset pages: the first has no lower bound (PostgreSQL's uuid column rejects an empty string).
        const rows = yield* sql<{ record_id: string; value: Uint8Array }>`select record_id, value from vectors
          where vector_settings_id = ${settingsId}${after === undefined ? sql`` : sql` and record_id > ${after}`}
          order by record_id limit ${PAGE}`
        for (const row of rows) {
          // Rows written after the count are left for the next reload.
          if (ids.length === capacity) break
          normalise(new Float64Array(new Uint8Array(row.value).buffer), data, ids.length * dimensions)
          ids.push(row.record_id)
        }
        if (rows.length < PAGE || ids.length === capacity) break
        after = rows[rows.length - 1]?.record_id ?? after
      }
      const entry: Entry = {
        matrix: { ids, dimensions, data: data.subarray(0, ids.length * dimensions) },
        stamp,
        checkedAt: yield* Clock.currentTimeMillis
      }
      entries.set(settingsId, entry)
      return { _tag: "Matrix", matrix: entry.matrix } satisfies Loaded
    }).pipe(Effect.withSpan("VectorStore.loadMatrix", { attributes: { settings: settingsId } }))

  /** The matrix for these settings, reloaded when it was dropped or another process changed the vectors. */
  const matrix = (settingsId: VectorSettingsId, dimensions: number): Effect.Effect<Loaded> =>
    Effect.gen(function*() {
      const entry = entries.get(settingsId)
      if (entry === undefined) return yield* load(settingsId, dimensions)
      const now = yield* Clock.currentTimeMillis
      const kept = { _tag: "Matrix", matrix: entry.matrix } satisfies Loaded
      if (now - entry.checkedAt < RECHECK_MILLIS) return kept
      entry.checkedAt = now
      // Other processes' writes: a count and a max over the settings' vectors, in the search that came due for it.
      const stamp = yield* stampOf(settingsId).pipe(Effect.withSpan("VectorStore.recheckMatrix"))
      return stamp === entry.stamp ? kept : yield* load(settingsId, dimensions)
    }).pipe(Effect.orDie)

  const drop = (settingsIds: Iterable<string>) =>
    Effect.sync(() => {
      for (const id of settingsIds) entries.delete(id)
    })

  return { matrix, drop, dropAll: Effect.sync(() => entries.clear()) } as const
}

export type Matrices = ReturnType<typeof makeMatrices>

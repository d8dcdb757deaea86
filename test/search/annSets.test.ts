/**
 * What a catch-up remembers of the keys it applied (`recent`, so that a look back does not add a vector twice) is
 * pruned as the look-back window moves on, and only then: walking the map at every catch-up held the event loop
 * after a bulk import (tens of thousands of keys), every 5 s, with nothing written.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { makeAnnSets, makeEntry } from "../../src/services/search/vectors/ann/annSets.js"
import { makeAnnWorker } from "../../src/services/search/vectors/ann/AnnWorker.js"
import { vectorRows } from "../../src/services/search/vectors/rows.js"
import { MigratedSqlite, stampedVectors } from "../support/annRows.js"

const SETTINGS = "01a2102b-399d-732e-875e-093c23e24300"

describe("ANN index sets", () => {
  layer(MigratedSqlite)((it) => {
    it.scoped("a catch-up forgets the keys it applied once they fall out of the look-back window", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const write = stampedVectors(sql, SETTINGS)
        const { catchUp, fill } = makeAnnSets({ worker: yield* makeAnnWorker, files: undefined, rows: vectorRows(sql, (s) => s) })
        const entry = yield* makeEntry(SETTINGS, 4, 0)

        // Three vectors at 1 s, added by a catch-up at 2 s: remembered (the look-back is 30 s).
        yield* TestClock.setTime(1_000)
        const set = yield* fill(entry)
        for (let i = 0; i < 3; i++) yield* write(1_000)
        yield* TestClock.setTime(2_000)
        yield* catchUp(entry, set)
        expect(set.entries).toBe(3)
        expect(set.recent.size).toBe(3)
        // Nothing written for a minute: the window does not move (it trails the newest stamp), nothing is pruned.
        yield* TestClock.setTime(60_000)
        yield* catchUp(entry, set)
        expect(set.recent.size).toBe(3)
        // A vector at 100 s moves the window past the first three: they are forgotten, the new one remembered.
        yield* write(100_000)
        yield* TestClock.setTime(101_000)
        yield* catchUp(entry, set)
        yield* catchUp(entry, set)
        expect(set.entries).toBe(4)
        expect([...set.recent.values()]).toEqual([100_000])
      }), { timeout: 20_000 })
  })
})

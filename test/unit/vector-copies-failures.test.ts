/**
 * The copies beside the vector index are a cache: a copy that cannot be written costs a read of the database, never a
 * failed search. Such a failure is still logged with its cause (a full disk must not go unseen), once a minute at most.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Logger } from "effect"
import { makeVectorCopies } from "../../src/services/search/vectors/copies.js"

const row = (key: number) => ({ key, at: new Date(1_000), version: 0, value: new Uint8Array(Float64Array.of(1, 2, 3, 4).buffer) })

describe("vector copies that cannot be written", () => {
  it.scopedLive("are skipped, and the failure is logged with its cause, once", () =>
    Effect.gen(function*() {
      const home = fs.mkdtempSync(path.join(os.tmpdir(), "gloss-copies-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => fs.rmSync(home, { recursive: true, force: true })))
      // Where the copies' folder should be, a file: nothing can be written under it.
      fs.writeFileSync(path.join(home, "vectors"), "")
      const logged: Array<{ readonly message: unknown; readonly cause: Cause.Cause<unknown> }> = []
      const capture = Logger.make(({ cause, message }) => logged.push({ message, cause }))
      yield* Effect.gen(function*() {
        const copies = yield* makeVectorCopies(home)
        copies.write("s", 4, [row(1)])
        copies.write("s", 4, [row(2)])
        expect(copies.read("s", 4, row(1))).toBeUndefined()
        yield* Effect.yieldNow()
        yield* Effect.sleep("10 millis")
      }).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, capture)))
      const warnings = logged.filter((entry) => String(entry.message).includes("writing a copy"))
      expect(warnings).toHaveLength(1)
      expect(Cause.pretty(warnings[0]!.cause)).toMatch(/ENOTDIR|EEXIST|not a directory/)
    }))
})

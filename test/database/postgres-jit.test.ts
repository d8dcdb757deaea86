/**
 * Gloss's PostgreSQL connections run with JIT compilation off: the planner's estimates for a search over a million
 * records pass `jit_above_cost`, and compiling costs more than the query, on every search. A URL that sets `jit`
 * itself keeps its own setting.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it as vitestIt, layer } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { SqlLive, withoutJit } from "../../src/services/database/Database.js"
import { dialects, freshDatabase } from "../support/databases.js"

const value = (url: string) => Redacted.value(withoutJit(Redacted.make(url)))

describe("withoutJit", () => {
  vitestIt("adds -c jit=off to the startup options, keeps other options, leaves an explicit jit alone", () => {
    expect(new URL(value("postgres://u:p@h:5432/db")).searchParams.get("options")).toBe("-c jit=off")
    const kept = new URL(value("postgres://u:p@h:5432/db?sslmode=require&options=-c%20statement_timeout%3D5000"))
    expect(kept.searchParams.get("options")).toBe("-c statement_timeout=5000 -c jit=off")
    expect(kept.searchParams.get("sslmode")).toBe("require")
    expect(value("postgres://h/db?options=-c%20jit%3Don")).toBe("postgres://h/db?options=-c%20jit%3Don")
  })
})

if (dialects.includes("postgres")) {
  const withUrl = (change: (url: string) => string) =>
    Layer.unwrapScoped(Effect.map(freshDatabase("postgres"), ({ env }) =>
      SqlLive.pipe(Layer.provide(GlossConfig.fromRecord({ ...env, GLOSS_DATABASE_URL: change(env.GLOSS_DATABASE_URL!) })))))

  layer(withUrl((url) => url), { timeout: 30_000 })("a Gloss connection", (it) => {
    it.effect("has jit off", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        expect(yield* sql<{ jit: string }>`show jit`).toEqual([{ jit: "off" }])
      }))
  })
  layer(withUrl((url) => `${url}?options=-c%20jit%3Don`), { timeout: 30_000 })("a connection whose URL sets jit", (it) => {
    it.effect("keeps it", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        expect(yield* sql<{ jit: string }>`show jit`).toEqual([{ jit: "on" }])
      }))
  })
}

import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import pg from "pg"
import { dialects, POSTGRES_URL } from "../support/databases.js"
import { raw, TestServer, TestServerLive } from "../support/server.js"

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 60_000 })("health", (it) => {
      it.effect("liveness and readiness answer without credentials; every dependency is ok", () =>
        Effect.gen(function*() {
          expect((yield* raw("/api/v1/health/live")).body).toEqual({ status: "ok" })
          const ready = yield* raw("/api/v1/health/ready")
          expect(ready.status).toBe(200)
          expect(ready.body).toEqual({
            status: "ok",
            database: { status: "ok" },
            search_engine: { status: "ok" },
            job_queue: { status: "ok" }
          })
        }))
    })
  })
}

if (dialects.includes("postgres")) {
  layer(TestServerLive("postgres"), { excludeTestServices: true, timeout: 60_000 })("health without a database", (it) => {
    it.effect("readiness answers 503 naming the database when it is gone; liveness still answers", () =>
      Effect.gen(function*() {
        const { env } = yield* TestServer
        const name = new URL(env.GLOSS_DATABASE_URL ?? "").pathname.slice(1)
        yield* Effect.promise(async () => {
          const admin = new pg.Client({ connectionString: POSTGRES_URL })
          await admin.connect()
          await admin.query(`drop database ${name} with (force)`)
          await admin.end()
        })
        const ready = yield* raw("/api/v1/health/ready")
        expect(ready.status).toBe(503)
        expect(ready.body).toMatchObject({ status: "down", database: { status: "down" } })
        expect(JSON.stringify(ready.body)).not.toMatch(/password|gloss:gloss/)
        expect((yield* raw("/api/v1/health/live")).status).toBe(200)
      }))
  })
} else {
  console.warn("[gloss tests] Skipping 'readiness without a database': it needs PostgreSQL to drop a database under a running server.")
}

/**
 * API keys at rest: the database holds a SHA-256 digest (what a key is looked up by) and a sealed copy (AES-256-GCM,
 * key from GLOSS_AUTH_SECRET_KEY or a generated file), never the key. A user sees their own key in `GET /me`; others'
 * keys are shown once, when the user is created. Keys stored in clear by earlier versions are converted in place.
 */
import * as crypto from "node:crypto"
import bcrypt from "bcryptjs"
import { describe, expect, it, layer } from "@effect/vitest"
import { Migrator, SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { SqlLive } from "../../src/services/database/Database.js"
import { migrations } from "../../src/services/database/migrations.js"
import { dialects, freshDatabase } from "../support/databases.js"
import { unique } from "../support/fixtures.js"
import { OWNER, raw, TestServer, TestServerLive, TestServerOn, testServerEnv } from "../support/server.js"

const sha256 = (key: string) => crypto.createHash("sha256").update(key).digest("hex")

const asKey = (key: string) => ({ headers: { "x-gloss-api-key": key } })
const asBearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } })

const post = (path: string, body: unknown) =>
  raw(path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-gloss-api-key": OWNER.apiKey },
    body: JSON.stringify(body)
  })

const tokenOf = (username: string, password: string) =>
  Effect.map(
    raw("/api/v1/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username, password }).toString()
    }),
    (response) => String((response.body as { access_token: string }).access_token)
  )

const newUser = Effect.gen(function*() {
  const username = unique("keyed")
  const created = yield* post("/api/v1/users", { first_name: "K", username, password: "password-1234" })
  expect(created.status).toBe(201)
  const user = created.body as { id: string; api_key: string }
  return { id: user.id, username, apiKey: user.api_key }
})

/** Every stored user row, every column as text. */
const userRows = Effect.flatMap(SqlClient.SqlClient, (sql) => sql<Record<string, unknown>>`select * from users`)

/** The migrations before API keys were sealed: the schema an earlier version left behind. */
const migrateTo0011 = Migrator.make({})({
  loader: Migrator.fromRecord(Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "0012")))
})

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 60_000 })("API keys at rest", (it) => {
      it.effect("the database holds each key's digest and a sealed copy, never the key", () =>
        Effect.gen(function*() {
          const user = yield* newUser
          const rows = yield* userRows
          expect(Object.keys(rows[0] ?? {})).not.toContain("api_key")
          const stored = JSON.stringify(rows)
          for (const key of [OWNER.apiKey, user.apiKey]) expect(stored).not.toContain(key)
          const row = rows.find((r) => r.id === user.id)
          expect(row?.api_key_digest).toBe(sha256(user.apiKey))
          expect(String(row?.api_key_sealed)).toMatch(/^v1\./)
          expect(rows.find((r) => r.username === OWNER.username)?.api_key_digest).toBe(sha256(OWNER.apiKey))
        }))

      it.effect("GET /me shows the caller's own key, signed in by key or by token; other answers show no key", () =>
        Effect.gen(function*() {
          const user = yield* newUser
          expect((yield* raw("/api/v1/me", asKey(user.apiKey))).body).toMatchObject({ id: user.id, api_key: user.apiKey })
          const token = yield* tokenOf(user.username, "password-1234")
          expect((yield* raw("/api/v1/me", asBearer(token))).body).toMatchObject({ id: user.id, api_key: user.apiKey })
          // Owners included: the list, one user, an update.
          const answers = [
            yield* raw("/api/v1/users", asKey(OWNER.apiKey)),
            yield* raw(`/api/v1/users/${user.id}`, asKey(OWNER.apiKey)),
            yield* raw(`/api/v1/users/${user.id}`, {
              method: "PATCH",
              headers: { "content-type": "application/json", "x-gloss-api-key": OWNER.apiKey },
              body: JSON.stringify({ first_name: "Renamed" })
            })
          ]
          expect(answers.map((a) => a.status)).toEqual([200, 200, 200])
          for (const { text } of answers) {
            expect(text).not.toContain("api_key")
            expect(text).not.toContain(user.apiKey)
          }
        }))

      it.effect("a valid key beside a credential that does not verify is refused (401); agreeing ones pass", () =>
        Effect.gen(function*() {
          const user = yield* newUser
          const userToken = yield* tokenOf(user.username, "password-1234")
          const ownerToken = yield* tokenOf(OWNER.username, OWNER.password)
          const me = (headers: Record<string, string>) => Effect.map(raw("/api/v1/me", { headers }), (r) => r.status)
          const key = { "x-gloss-api-key": OWNER.apiKey }
          const refused = [
            { ...key, authorization: "Bearer abc" },
            { ...key, authorization: "Bearer " },
            { ...key, authorization: "Basic b3duZXI6b3duZXItcGFzc3dvcmQ=" },
            { ...key, authorization: `Bearer ${userToken}` },
            { ...key, "x-argilla-api-key": "" },
            { "x-argilla-api-key": OWNER.apiKey, "x-gloss-api-key": "" },
            { ...key, "x-argilla-api-key": user.apiKey }
          ]
          for (const headers of refused) expect([JSON.stringify(headers), yield* me(headers)]).toEqual([JSON.stringify(headers), 401])
          const accepted = [
            key,
            { ...key, "x-argilla-api-key": OWNER.apiKey },
            { ...key, authorization: `Bearer ${ownerToken}` },
            // A private Hugging Face Space's proxy wants the Hub token beside the key.
            { ...key, authorization: "Bearer hf_notours" },
            { authorization: `Bearer ${userToken}` }
          ]
          for (const headers of accepted) expect([JSON.stringify(headers), yield* me(headers)]).toEqual([JSON.stringify(headers), 200])
        }))
    })

    it.live("keys stored in clear by an earlier version are converted in place and keep working", () =>
      Effect.scoped(Effect.gen(function*() {
        const database = yield* freshDatabase(dialect)
        const env = testServerEnv(database)
        const legacyKey = "legacy-key-stored-in-clear-0123456789"
        yield* Effect.gen(function*() {
          yield* migrateTo0011
          const sql = yield* SqlClient.SqlClient
          const at = new Date().toISOString()
          yield* sql`insert into users ${
            sql.insert({
              id: crypto.randomUUID(),
              first_name: "Legacy",
              username: "legacy",
              role: "annotator",
              api_key: legacyKey,
              // A hash as an earlier version stored it; the cost does not matter to what is tested.
              password_hash: bcrypt.hashSync("password-1234", 4),
              inserted_at: at,
              updated_at: at
            })
          }`
        }).pipe(Effect.provide(SqlLive.pipe(Layer.provide(GlossConfig.fromRecord(env)))))

        const server = yield* Layer.build(TestServerOn(dialect, env))
        yield* Effect.gen(function*() {
          const me = yield* raw("/api/v1/me", asKey(legacyKey))
          expect(me.status).toBe(200)
          expect(me.body).toMatchObject({ username: "legacy", api_key: legacyKey })
          const rows = yield* userRows
          expect(JSON.stringify(rows)).not.toContain(legacyKey)
          expect(rows.find((r) => r.username === "legacy")?.api_key_digest).toBe(sha256(legacyKey))
        }).pipe(Effect.provide(server))
      })), 60_000)

    it.live("under another GLOSS_AUTH_SECRET_KEY keys still work; GET /me by token leaves out a key it cannot open", () =>
      Effect.scoped(Effect.gen(function*() {
        const database = yield* freshDatabase(dialect)
        const me = (key: string) => Effect.map(raw("/api/v1/me", asKey(key)), (r) => r.body as Record<string, unknown>)
        const meByToken = (username: string) =>
          Effect.flatMap(tokenOf(username, "password-1234"), (token) =>
            Effect.map(raw("/api/v1/me", asBearer(token)), (r) => r.body as Record<string, unknown>))
        const first = yield* Layer.build(TestServerOn(dialect, testServerEnv(database)))
        const user = yield* newUser.pipe(Effect.provide(first))
        expect(yield* me(user.apiKey).pipe(Effect.provide(first))).toHaveProperty("api_key", user.apiKey)
        const other = testServerEnv(database, { GLOSS_AUTH_SECRET_KEY: "another-secret-key-with-enough-entropy-98765" })
        const second = yield* Layer.build(TestServerOn(dialect, other))
        // Signed in by key, the key is known anyway; by token, only the sealed copy could tell, and it cannot.
        expect(yield* me(user.apiKey).pipe(Effect.provide(second))).toHaveProperty("api_key", user.apiKey)
        const shown = yield* meByToken(user.username).pipe(Effect.provide(second))
        expect(shown).toMatchObject({ id: user.id, username: user.username })
        expect(shown).not.toHaveProperty("api_key")
        // Users created under the new secret are shown theirs.
        const later = yield* newUser.pipe(Effect.provide(second))
        expect(yield* meByToken(later.username).pipe(Effect.provide(second))).toHaveProperty("api_key", later.apiKey)
      })), 60_000)
  })
}

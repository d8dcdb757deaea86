import Sqlite from "better-sqlite3"
import * as path from "node:path"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { dialects, freshDatabase } from "../support/databases.js"
import { OWNER, ownerClient, raw, TestServer, TestServerLive, TestServerOn } from "../support/server.js"

const ownerHeaders = { "x-gloss-api-key": OWNER.apiKey }

layer(TestServerLive("sqlite", { GLOSS_BASE_URL: "/gloss/" }), { excludeTestServices: true })("GLOSS_BASE_URL", (it) => {
  it.effect("everything answers under the prefix and nothing answers without it", () =>
    Effect.gen(function*() {
      const { url } = yield* TestServer
      expect(url.endsWith("/gloss")).toBe(true)
      expect((yield* raw("/api/v1/version")).status).toBe(200)
      expect((yield* (yield* ownerClient).me.me()).username).toBe(OWNER.username)
      const docs = yield* raw("/api/v1/docs")
      expect(docs.status).toBe(200)
      expect(docs.headers.get("content-type")).toContain("text/html")
      const spec = yield* raw("/api/v1/openapi.json")
      expect((spec.body as { servers: Array<{ url: string }> }).servers).toEqual([{ url: "/gloss" }])
      const bare = yield* Effect.promise(() => fetch(url.replace(/\/gloss$/, "") + "/api/v1/version"))
      expect(bare.status).toBe(404)
      const redirect = yield* raw("/docs", { redirect: "manual" })
      expect(redirect.status).toBe(307)
      expect(redirect.headers.get("location")).toBe("/gloss/api/v1/docs")
    }))
})

layer(TestServerLive("sqlite"), { excludeTestServices: true })("docs, enabled (the default)", (it) => {
  it.effect("/api/v1/docs and /api/docs serve the interactive docs offline; /api/v1/openapi.json the document", () =>
    Effect.gen(function*() {
      for (const path of ["/docs", "/api"]) {
        const redirect = yield* raw(path, { redirect: "manual" })
        expect(redirect.status).toBe(307)
        expect(redirect.headers.get("location")).toBe("/api/v1/docs")
      }
      for (const path of ["/api/v1/docs", "/api/docs"]) {
        const page = yield* raw(path)
        expect(page.status).toBe(200)
        expect(page.text).toContain("SwaggerUIBundle")
        // Offline: the page loads nothing from a CDN.
        expect(page.text).not.toMatch(/<script[^>]+src=["']https?:/)
      }
      const spec = yield* raw("/api/v1/openapi.json")
      const document = spec.body as { openapi: string; paths: Record<string, unknown>; info: { title: string } }
      expect(document.openapi).toMatch(/^3\./)
      expect(document.info.title).toBe("Gloss API")
      expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(["/api/v1/me", "/api/v1/users/{id}", "/api/v1/token"]))
    }))

  it.effect("without GLOSS_CORS_ORIGINS no cross-origin access is granted", () =>
    Effect.gen(function*() {
      const preflight = yield* raw("/api/v1/me", {
        method: "OPTIONS",
        headers: { origin: "https://evil.example.com", "access-control-request-method": "GET" }
      })
      expect(preflight.headers.get("access-control-allow-origin")).toBeNull()
    }))
})

layer(TestServerLive("sqlite", { GLOSS_DOCS_ENABLED: "false" }), { excludeTestServices: true })("docs, disabled", (it) => {
  it.effect("GLOSS_DOCS_ENABLED=false turns /api/docs into a 404; /api/v1/docs stays", () =>
    Effect.gen(function*() {
      expect((yield* raw("/api/docs")).status).toBe(404)
      expect((yield* raw("/api/v1/docs")).status).toBe(200)
    }))
})

layer(
  TestServerLive("sqlite", { GLOSS_CORS_ORIGINS: "https://app.example.com,https://*.corp.dev" }),
  { excludeTestServices: true }
)("GLOSS_CORS_ORIGINS", (it) => {
  it.effect("listed origins (and wildcard patterns) get CORS headers; others do not", () =>
    Effect.gen(function*() {
      for (const origin of ["https://app.example.com", "https://ui.corp.dev"]) {
        const preflight = yield* raw("/api/v1/me", {
          method: "OPTIONS",
          headers: { origin, "access-control-request-method": "GET", "access-control-request-headers": "x-gloss-api-key" }
        })
        expect(preflight.status).toBe(204)
        expect(preflight.headers.get("access-control-allow-origin")).toBe(origin)
        expect(preflight.headers.get("access-control-allow-headers")).toContain("x-gloss-api-key")
        const actual = yield* raw("/api/v1/me", { headers: { origin, ...ownerHeaders } })
        expect(actual.headers.get("access-control-allow-origin")).toBe(origin)
      }
      // Error responses carry the headers too, so a browser can read the 401 body.
      const unauthorized = yield* raw("/api/v1/me", { headers: { origin: "https://app.example.com" } })
      expect(unauthorized.status).toBe(401)
      expect(unauthorized.headers.get("access-control-allow-origin")).toBe("https://app.example.com")
      const denied = yield* raw("/api/v1/me", {
        method: "OPTIONS",
        headers: { origin: "https://evil.example.com", "access-control-request-method": "GET" }
      })
      expect(denied.headers.get("access-control-allow-origin")).toBeNull()
    }))
})

layer(TestServerLive("sqlite", { GLOSS_DATABASE_SQLITE_TIMEOUT: "1" }), { excludeTestServices: true })(
  "GLOSS_DATABASE_SQLITE_TIMEOUT",
  (it) => {
    it.effect("a table locked past the timeout answers 503 with a clear body, and the server recovers", () =>
      Effect.gen(function*() {
        const { home } = yield* TestServer
        const other = new Sqlite(path.join(home, "gloss.db"))
        other.exec("BEGIN EXCLUSIVE")
        const blocked = yield* raw("/api/v1/workspaces", {
          method: "POST",
          headers: { ...ownerHeaders, "content-type": "application/json" },
          body: JSON.stringify({ name: "while-locked" })
        })
        // Reads are not blocked by a writer in WAL mode.
        const read = yield* raw("/api/v1/me", { headers: ownerHeaders })
        other.close()
        expect(blocked.status).toBe(503)
        expect(blocked.body).toEqual({
          detail: "The database stayed locked for more than 1 s (GLOSS_DATABASE_SQLITE_TIMEOUT); try again"
        })
        expect(read.status).toBe(200)
        const after = yield* raw("/api/v1/workspaces", {
          method: "POST",
          headers: { ...ownerHeaders, "content-type": "application/json" },
          body: JSON.stringify({ name: "after-lock" })
        })
        expect(after.status).toBe(201)
      }))
  }
)

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(Layer.empty, { excludeTestServices: true, timeout: 60_000 })("owner bootstrap", (it) => {
      it.scoped("USERNAME/PASSWORD/API_KEY/WORKSPACE create the owner once; restarting changes nothing", () =>
        Effect.gen(function*() {
          const database = yield* freshDatabase(dialect)
          const env = {
            ...database.env,
            USERNAME: "boss",
            PASSWORD: "boss-password",
            API_KEY: "boss.apikey.1234",
            WORKSPACE: "main",
            GLOSS_LOG_LEVEL: "error"
          }
          const snapshot = Effect.gen(function*() {
            const me = yield* raw("/api/v1/me", { headers: { "x-gloss-api-key": "boss.apikey.1234" } })
            const users = yield* raw("/api/v1/users", { headers: { "x-gloss-api-key": "boss.apikey.1234" } })
            const workspaces = yield* raw("/api/v1/me/workspaces", { headers: { "x-gloss-api-key": "boss.apikey.1234" } })
            const [workspace] = (workspaces.body as { items: Array<{ id: string }> }).items
            const members = yield* raw(`/api/v1/workspaces/${workspace?.id}/users`, {
              headers: { "x-gloss-api-key": "boss.apikey.1234" }
            })
            return { me: me.body, users: users.body, workspaces: workspaces.body, members: members.body }
          })
          const boot = Effect.scoped(snapshot.pipe(Effect.provide(TestServerOn(dialect, env))))
          const first = yield* boot
          expect(first.me).toMatchObject({ username: "boss", role: "owner", first_name: "boss" })
          expect((first.workspaces as { items: Array<{ name: string }> }).items.map((w) => w.name)).toEqual(["main"])
          expect((first.members as { items: Array<{ username: string }> }).items.map((u) => u.username)).toEqual(["boss"])
          const second = yield* boot
          expect(second).toEqual(first)
        }))
    })
  })
}


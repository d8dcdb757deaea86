import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SignJWT } from "jose"
import { dialects } from "../support/databases.js"
import { userWith } from "../support/fixtures.js"
import { AUTH_SECRET, clientFor, clientWith, OWNER, ownerClient, raw, TestServerLive } from "../support/server.js"

const UNAUTHORIZED = {
  detail: { code: "argilla.api.errors::UnauthorizedError", params: { detail: "Could not validate credentials" } }
}
const INVALID_TOKEN = { detail: { code: "argilla.api.errors::UnauthorizedError", params: { detail: "Invalid token" } } }

const sign = (claims: Record<string, unknown>, exp: number, secret = AUTH_SECRET) =>
  Effect.promise(() =>
    new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).setExpirationTime(exp).sign(new TextEncoder().encode(secret))
  )

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 60_000 })("foundation", (it) => {
      it.effect("version, status and settings answer without credentials", () =>
        Effect.gen(function*() {
          const anonymous = yield* clientFor()
          const { version } = yield* anonymous.info.version()
          expect(version).toMatch(/^\d+\.\d+\.\d+/)
          const status = yield* anonymous.info.status()
          expect(status.version).toBe(version)
          expect(status.search_engine).toEqual({ engine: "database", dialect: dialect === "postgres" ? "postgresql" : "sqlite" })
          expect(status.memory.rss).toMatch(/^\d+[BKMGTP]$/)
          const settings = yield* raw("/api/v1/settings")
          expect(settings.body).toEqual({ argilla: { share_your_progress_enabled: false } })
        }))

      it.effect("the bootstrapped owner reads itself with the API key, in either header", () =>
        Effect.gen(function*() {
          const me = yield* (yield* ownerClient).me.me()
          expect(me).toMatchObject({ username: OWNER.username, role: "owner", api_key: OWNER.apiKey, last_name: null })
          const viaArgillaHeader = yield* (yield* clientWith({ "X-Argilla-Api-Key": OWNER.apiKey })).me.me()
          expect(viaArgillaHeader.id).toBe(me.id)
          const body = yield* raw("/api/v1/me", { headers: { "x-gloss-api-key": OWNER.apiKey } })
          expect(Object.keys(body.body as object).sort()).toEqual(
            ["api_key", "first_name", "id", "inserted_at", "last_name", "role", "updated_at", "username"]
          )
          // Naive UTC timestamps, as the contract serialises them.
          expect((body.body as { inserted_at: string }).inserted_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/)
        }))

      it.effect("POST /token exchanges a username and password for a bearer JWT that authenticates", () =>
        Effect.gen(function*() {
          const token = yield* (yield* clientFor()).auth.token({
            payload: { username: OWNER.username, password: OWNER.password }
          })
          expect(token.token_type).toBe("bearer")
          const viaBearer = yield* (yield* clientWith({ Authorization: `Bearer ${token.access_token}` })).me.me()
          expect(viaBearer.username).toBe(OWNER.username)
        }))

      it.effect("POST /token with a wrong password or an unknown user answers 401", () =>
        Effect.gen(function*() {
          for (const body of ["username=owner&password=wrong-password", "username=nobody&password=whatever1"]) {
            const response = yield* raw("/api/v1/token", {
              method: "POST",
              headers: { "content-type": "application/x-www-form-urlencoded" },
              body
            })
            expect(response.status).toBe(401)
            expect(response.body).toEqual(UNAUTHORIZED)
            expect(response.headers.get("www-authenticate")).toBeNull()
          }
        }))

      it.effect("POST /token without a form field answers 422", () =>
        Effect.gen(function*() {
          const response = yield* raw("/api/v1/token", {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: "username=owner"
          })
          expect(response.status).toBe(422)
          expect(response.body).toMatchObject({ detail: { code: "argilla.api.errors::ValidationError" } })
        }))

      it.effect("no key, an unknown key and an unknown user's token answer 401 'Could not validate credentials'", () =>
        Effect.gen(function*() {
          const unknownUserToken = yield* sign({ username: "ghost" }, Math.floor(Date.now() / 1000) + 60)
          for (
            const headers of [
              {},
              { "x-gloss-api-key": "not-a-key" },
              { "x-argilla-api-key": "" },
              { authorization: `Bearer ${unknownUserToken}` }
            ]
          ) {
            const response = yield* raw("/api/v1/me", { headers })
            expect(response.status).toBe(401)
            expect(response.body).toEqual(UNAUTHORIZED)
          }
          const error = yield* (yield* clientFor("not-a-key")).me.me().pipe(Effect.flip)
          expect(error._tag).toBe("Unauthorized")
        }))

      it.effect("a bad, expired or foreign-signed bearer token answers 401 'Invalid token'", () =>
        Effect.gen(function*() {
          const expired = yield* sign({ username: OWNER.username }, Math.floor(Date.now() / 1000) - 10)
          const foreign = yield* sign({ username: OWNER.username }, Math.floor(Date.now() / 1000) + 60, "another-secret")
          for (const token of ["garbage", expired, foreign]) {
            const response = yield* raw("/api/v1/me", { headers: { authorization: `Bearer ${token}` } })
            expect(response.status).toBe(401)
            expect(response.body).toEqual(INVALID_TOKEN)
          }
        }))

      it.effect("an unknown route answers 404 {detail: 'Not Found'}", () =>
        Effect.gen(function*() {
          const response = yield* raw("/api/v1/no-such-thing")
          expect(response.status).toBe(404)
          expect(response.body).toEqual({ detail: "Not Found" })
        }))

      it.effect("GET /me/workspaces lists all workspaces for an owner and memberships for others", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const a = yield* owner.workspaces.create({ payload: { name: "me-ws-a" } })
          yield* owner.workspaces.create({ payload: { name: "me-ws-b" } })
          const ownerSees = yield* owner.me.workspaces()
          expect(ownerSees.items.map((w) => w.name)).toEqual(expect.arrayContaining(["me-ws-a", "me-ws-b"]))
          const annotator = yield* userWith("annotator", [a])
          const annotatorSees = yield* annotator.client.me.workspaces()
          expect(annotatorSees.items.map((w) => w.name)).toEqual(["me-ws-a"])
          const loner = yield* userWith("admin")
          expect((yield* loner.client.me.workspaces()).items).toEqual([])
        }))
    })
  })
}

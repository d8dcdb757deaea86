/**
 * First start in the browser: `GET/POST /api/gloss/setup` on a server started without USERNAME and PASSWORD. From
 * the loopback address no token is needed; from anywhere else (a client behind a trusted proxy, or any request a
 * proxy forwarded) the set-up token is. Ten set-ups at once make exactly one owner, and once an owner exists every
 * set-up answers 409.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Either, Option, Redacted } from "effect"
import { setupToken } from "../../src/services/setup/setupToken.js"
import { dialects } from "../support/databases.js"
import { expectFailure } from "../support/expect.js"
import { unique } from "../support/fixtures.js"
import { AUTH_SECRET, clientWith, raw, TestServer, TestServerLive } from "../support/server.js"

/** No owner from the environment: the server starts waiting for its set-up. */
const NO_OWNER = { USERNAME: "", PASSWORD: "", API_KEY: "", GLOSS_TRUST_PROXY: "true" }
const REMOTE = { "x-forwarded-for": "203.0.113.9" }
const PASSWORD = "first-owner-password"

const token = Effect.flatMap(TestServer, ({ home }) =>
  setupToken({ auth: { secretKey: Option.some(Redacted.make(AUTH_SECRET)) } as never, home }))

const request = (workspace = unique("team"), username = unique("boss")) => ({ username, password: PASSWORD, workspace })

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect, NO_OWNER), { excludeTestServices: true, timeout: 60_000 })("first-start set-up", (it) => {
      it.effect("status: needed while no owner exists; the token is required except from loopback", () =>
        Effect.gen(function*() {
          expect(yield* (yield* clientWith({})).setup.status()).toEqual({ needed: true, token_required: false })
          expect(yield* (yield* clientWith(REMOTE)).setup.status()).toEqual({ needed: true, token_required: true })
          // The forwarded address is read because GLOSS_TRUST_PROXY is set: a loopback client behind the proxy.
          expect(yield* (yield* clientWith({ "x-forwarded-for": "127.0.0.1" })).setup.status()).toEqual({
            needed: true,
            token_required: false
          })
        }))

      it.effect("from a remote address: 403 without the token and with a wrong one, and nothing is created", () =>
        Effect.gen(function*() {
          const remote = yield* clientWith(REMOTE)
          yield* expectFailure(remote.setup.create({ payload: request() }), "Forbidden", /set-up token is required/)
          yield* expectFailure(
            remote.setup.create({ payload: { ...request(), token: "x".repeat(32) } }),
            "Forbidden",
            /set-up token is wrong/
          )
          expect((yield* remote.setup.status()).needed).toBe(true)
        }))

      it.effect("the token is 32 URL-safe characters and the same for every derivation from the secret", () =>
        Effect.gen(function*() {
          const first = yield* token
          expect(first).toMatch(/^[A-Za-z0-9_-]{32}$/)
          expect(yield* token).toBe(first)
        }))

      it.effect("ten set-ups at once with the token: exactly one owner; the others answer 409", () =>
        Effect.gen(function*() {
          const remote = yield* clientWith(REMOTE)
          const secret = yield* token
          const workspace = unique("team")
          const results = yield* Effect.all(
            Array.from({ length: 10 }, (_, i) =>
              Effect.either(remote.setup.create({
                payload: { ...request(workspace, `boss-${i}`), token: secret, first_name: "Boss" }
              }))),
            { concurrency: "unbounded" }
          )
          const won = results.filter(Either.isRight)
          expect(won).toHaveLength(1)
          for (const lost of results.filter(Either.isLeft)) {
            expect(lost.left._tag).toBe("Conflict")
          }
          const answer = won[0]!.right
          expect(answer.token_type).toBe("bearer")

          // The access token signs in as the new owner, member of the new workspace.
          const owner = yield* clientWith({ authorization: `Bearer ${answer.access_token}` })
          const me = yield* owner.me.me()
          expect(me).toMatchObject({ role: "owner", first_name: "Boss" })
          expect((yield* owner.me.workspaces()).items.map((w) => w.name)).toEqual([workspace])
          const owners = (yield* owner.users.list()).items.filter((u) => u.role === "owner")
          expect(owners.map((u) => u.username)).toEqual([me.username])
          const members = yield* owner.workspaces.listUsers({ path: { id: (yield* owner.me.workspaces()).items[0]!.id } })
          expect(members.items.map((u) => u.id)).toEqual([me.id])

          // The password chosen signs in too.
          const form = new URLSearchParams({ username: me.username, password: PASSWORD }).toString()
          const signIn = yield* raw("/api/v1/token", {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: form
          })
          expect(signIn.status).toBe(201)
        }))

      it.effect("once an owner exists: 409 for good, from loopback too, and the status says it is not needed", () =>
        Effect.gen(function*() {
          const local = yield* clientWith({})
          expect((yield* local.setup.status()).needed).toBe(false)
          yield* expectFailure(local.setup.create({ payload: request() }), "Conflict", "Gloss is already set up: an owner exists. Sign in instead.")
          const remote = yield* clientWith(REMOTE)
          yield* expectFailure(remote.setup.create({ payload: { ...request(), token: yield* token } }), "Conflict")
          // Even a wrong token gets the 409: the set-up is over, there is nothing to guard.
          const answer = yield* raw("/api/gloss/setup", {
            method: "POST",
            headers: { "content-type": "application/json", ...REMOTE },
            body: JSON.stringify(request())
          })
          expect(answer.status).toBe(409)
          expect(answer.body).toEqual({ detail: "Gloss is already set up: an owner exists. Sign in instead." })
        }))
    })

    layer(TestServerLive(dialect, { ...NO_OWNER, GLOSS_TRUST_PROXY: "false" }), { excludeTestServices: true, timeout: 60_000 })(
      "first-start set-up behind an untrusted proxy",
      (it) => {
        it.effect("a forwarded request is not loopback, whatever the socket's peer: the token is required", () =>
          Effect.gen(function*() {
            expect(yield* (yield* clientWith(REMOTE)).setup.status()).toEqual({ needed: true, token_required: true })
            expect(yield* (yield* clientWith({ forwarded: "for=127.0.0.1" })).setup.status()).toMatchObject({
              token_required: true
            })
            yield* expectFailure(
              (yield* clientWith({ "x-forwarded-for": "127.0.0.1" })).setup.create({ payload: request() }),
              "Forbidden"
            )
          }))

        it.effect("from loopback without a token: the owner and the workspace are created, then 409", () =>
          Effect.gen(function*() {
            const local = yield* clientWith({})
            const workspace = unique("team")
            const answer = yield* local.setup.create({ payload: request(workspace, "first") })
            const owner = yield* clientWith({ authorization: `Bearer ${answer.access_token}` })
            expect(yield* owner.me.me()).toMatchObject({ username: "first", first_name: "first", role: "owner" })
            expect((yield* owner.me.workspaces()).items.map((w) => w.name)).toEqual([workspace])
            yield* expectFailure(local.setup.create({ payload: request() }), "Conflict")
          }))
      }
    )
  })
}

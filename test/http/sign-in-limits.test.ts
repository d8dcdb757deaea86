/**
 * Failed sign-ins are limited per username and per client address (`POST /token` answers 429 with `Retry-After`,
 * the right password included, until the window ends), and the counters live in the database, so every server on
 * it shares them. Loopback has a whole /8, so requests are sent from several local addresses to tell clients apart.
 */
import * as http from "node:http"
import { describe, expect, it, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { dialects, freshDatabase } from "../support/databases.js"
import { unique } from "../support/fixtures.js"
import { OWNER, ownerClient, TestServer, TestServerLive, TestServerOn, testServerEnv } from "../support/server.js"

const PASSWORD = "password-1234"

interface Answer {
  readonly status: number
  readonly retryAfter: string | undefined
  readonly body: unknown
}

/** `POST /token` on the server at `url`, sent from the local address `from`. */
const signInAt = (url: string, username: string, password: string, from: string, headers: Record<string, string> = {}) =>
  Effect.promise(() =>
    new Promise<Answer>((resolve, reject) => {
      const form = new URLSearchParams({ username, password }).toString()
      const target = new URL(`${url}/api/v1/token`)
      const request = http.request({
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        localAddress: from,
        headers: { ...headers, "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(form) }
      }, (response) => {
        let text = ""
        response.setEncoding("utf8")
        response.on("data", (chunk: string) => (text += chunk))
        response.on("end", () => {
          const header = response.headers["retry-after"]
          resolve({ status: response.statusCode ?? 0, retryAfter: header, body: text === "" ? null : JSON.parse(text) })
        })
      })
      request.on("error", reject)
      request.end(form)
    })
  )

const signIn = (username: string, password: string, from: string, headers: Record<string, string> = {}) =>
  Effect.flatMap(TestServer, ({ url }) => signInAt(url, username, password, from, headers))

const statuses = (answers: ReadonlyArray<Answer>) => answers.map((a) => a.status)

const newUser = Effect.gen(function*() {
  const username = unique("limited")
  yield* (yield* ownerClient).users.create({ payload: { first_name: "L", username, password: PASSWORD } })
  return username
})

/** A refusal as the limits give it: 429, a `Retry-After` within the window, the contract's `{"detail": …}` body. */
const expectLimited = (answer: Answer, windowSeconds: number) => {
  expect(answer.status).toBe(429)
  const seconds = Number(answer.retryAfter)
  expect(Number.isInteger(seconds) && seconds >= 1 && seconds <= windowSeconds).toBe(true)
  expect(Object.keys(answer.body as object)).toEqual(["detail"])
  expect((answer.body as { detail: string }).detail).toMatch(/^Too many failed sign-in attempts/)
}

const LIMITS = {
  GLOSS_AUTH_SIGNIN_MAX_FAILURES_PER_USER: "3",
  GLOSS_AUTH_SIGNIN_MAX_FAILURES_PER_ADDRESS: "10",
  GLOSS_AUTH_SIGNIN_WINDOW_SECONDS: "60"
}

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect, LIMITS), { excludeTestServices: true, timeout: 60_000 })("sign-in limits", (it) => {
      it.effect("per username: after 3 failures every attempt is 429, the right one and other addresses included; a success resets the count", () =>
        Effect.gen(function*() {
          const username = yield* newUser
          const from = "127.0.0.11"
          // Two failures, then a success: the count starts again.
          expect(statuses([
            yield* signIn(username, "wrong-password", from),
            yield* signIn(username, "wrong-password", from),
            yield* signIn(username, PASSWORD, from)
          ])).toEqual([401, 401, 201])
          expect(statuses([
            yield* signIn(username, "wrong-password", from),
            yield* signIn(username, "wrong-password", from),
            yield* signIn(username, "wrong-password", from)
          ])).toEqual([401, 401, 401])
          expectLimited(yield* signIn(username, "wrong-password", from), 60)
          expectLimited(yield* signIn(username, PASSWORD, from), 60)
          expectLimited(yield* signIn(username, PASSWORD, "127.0.0.12"), 60)
          // Another username from the same address is not held back.
          expect((yield* signIn(OWNER.username, OWNER.password, from)).status).toBe(201)
        }))

      it.effect("per address: after 10 failures (any usernames) the address gets 429, the right password included; others do not", () =>
        Effect.gen(function*() {
          const from = "127.0.0.21"
          const failures: Array<Answer> = []
          // Without GLOSS_TRUST_PROXY, what X-Forwarded-For claims changes nothing.
          for (let i = 0; i < 10; i++) {
            failures.push(yield* signIn(unique("nobody"), "wrong-password", from, { "x-forwarded-for": `203.0.113.${i}` }))
          }
          expect(statuses(failures)).toEqual(Array(10).fill(401))
          expectLimited(yield* signIn(OWNER.username, OWNER.password, from), 60)
          expect((yield* signIn(OWNER.username, OWNER.password, "127.0.0.22")).status).toBe(201)
        }))

      it.effect("attempts sent at once are counted before their passwords are checked: only 3 of 10 are tried", () =>
        Effect.gen(function*() {
          const username = yield* newUser
          const answers = yield* Effect.all(
            Array.from({ length: 10 }, () => signIn(username, "wrong-password", "127.0.0.81")),
            { concurrency: "unbounded" }
          )
          expect(statuses(answers).sort()).toEqual([...Array(3).fill(401), ...Array(7).fill(429)])
        }))

      it.effect("successes are not counted against the address", () =>
        Effect.gen(function*() {
          const from = "127.0.0.31"
          const answers: Array<Answer> = []
          for (let i = 0; i < 12; i++) answers.push(yield* signIn(OWNER.username, OWNER.password, from))
          expect(statuses(answers)).toEqual(Array(12).fill(201))
        }))
    })

    layer(
      TestServerLive(dialect, { GLOSS_AUTH_SIGNIN_MAX_FAILURES_PER_USER: "1", GLOSS_AUTH_SIGNIN_WINDOW_SECONDS: "1" }),
      { excludeTestServices: true, timeout: 60_000 }
    )("sign-in limits, one-second window", (it) => {
      it.effect("the lock ends with the window: the right password works once Retry-After has passed", () =>
        Effect.gen(function*() {
          const username = yield* newUser
          expect((yield* signIn(username, "wrong-password", "127.0.0.41")).status).toBe(401)
          const limited = yield* signIn(username, PASSWORD, "127.0.0.41")
          expectLimited(limited, 1)
          yield* Effect.sleep(`${Number(limited.retryAfter) * 1000 + 100} millis`)
          expect((yield* signIn(username, PASSWORD, "127.0.0.41")).status).toBe(201)
        }))
    })

    layer(
      TestServerLive(dialect, { GLOSS_TRUST_PROXY: "true", GLOSS_AUTH_SIGNIN_MAX_FAILURES_PER_ADDRESS: "2" }),
      { excludeTestServices: true, timeout: 60_000 }
    )("sign-in limits behind a trusted proxy", (it) => {
      it.effect("GLOSS_TRUST_PROXY=true counts against the last X-Forwarded-For address, not the proxy's", () =>
        Effect.gen(function*() {
          const proxy = "127.0.0.71"
          // The first address is whatever the client wrote; the last is the one the proxy appended.
          const client = (address: string) => ({ "x-forwarded-for": `198.51.100.7, ${address}` })
          expect(statuses([
            yield* signIn(unique("nobody"), "wrong-password", proxy, client("203.0.113.5")),
            yield* signIn(unique("nobody"), "wrong-password", proxy, client("203.0.113.5"))
          ])).toEqual([401, 401])
          expectLimited(yield* signIn(OWNER.username, OWNER.password, proxy, client("203.0.113.5")), 900)
          expect((yield* signIn(OWNER.username, OWNER.password, proxy, client("203.0.113.6"))).status).toBe(201)
          expect((yield* signIn(OWNER.username, OWNER.password, proxy)).status).toBe(201)
        }))
    })

    layer(
      TestServerLive(dialect, { GLOSS_AUTH_SIGNIN_MAX_FAILURES_PER_USER: "0", GLOSS_AUTH_SIGNIN_MAX_FAILURES_PER_ADDRESS: "0" }),
      { excludeTestServices: true, timeout: 60_000 }
    )("sign-in limits turned off", (it) => {
      it.effect("with both maxima at 0 failures are never limited", () =>
        Effect.gen(function*() {
          const username = yield* newUser
          const answers: Array<Answer> = []
          for (let i = 0; i < 12; i++) answers.push(yield* signIn(username, "wrong-password", "127.0.0.51"))
          expect(statuses(answers)).toEqual(Array(12).fill(401))
          expect((yield* signIn(username, PASSWORD, "127.0.0.51")).status).toBe(201)
        }))
    })

    it.live("two servers on one database share the counters", () =>
      Effect.scoped(Effect.gen(function*() {
        const database = yield* freshDatabase(dialect)
        const env = testServerEnv(database, { ...LIMITS, GLOSS_AUTH_SIGNIN_MAX_FAILURES_PER_USER: "2" })
        const first = Context.get(yield* Layer.build(TestServerOn(dialect, env)), TestServer).url
        const second = Context.get(yield* Layer.build(TestServerOn(dialect, env)), TestServer).url
        const from = "127.0.0.61"
        expect((yield* signInAt(first, OWNER.username, "wrong-password", from)).status).toBe(401)
        expect((yield* signInAt(second, OWNER.username, "wrong-password", from)).status).toBe(401)
        expectLimited(yield* signInAt(first, OWNER.username, OWNER.password, from), 60)
        expectLimited(yield* signInAt(second, OWNER.username, OWNER.password, from), 60)
      })), 60_000)
  })
}

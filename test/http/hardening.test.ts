/**
 * Input the API must refuse with a clear 4xx in the contract's shape, never a 500 or a stack trace: bodies of the
 * wrong media type, JSON nested too deep, wrong methods, disagreeing credentials, control characters in names, and
 * removing the last owner.
 */
import * as http from "node:http"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { dialects } from "../support/databases.js"
import { datasetPath, publishedDataset, send } from "../support/datasets.js"
import { unique, userWith, workspace } from "../support/fixtures.js"
import { OWNER, raw, TestServer, TestServerLive } from "../support/server.js"

type Json = Record<string, unknown>

/** `levels` arrays, one inside the other. */
const nested = (levels: number): unknown => {
  let value: unknown = "leaf"
  for (let i = 0; i < levels; i++) value = [value]
  return value
}

const expectNoInternals = (text: string) => {
  expect(text).not.toMatch(/\n\s+at /)
  expect(text).not.toMatch(/node_modules|\.ts:\d+/)
}

/**
 * The issues of a 422 in the ValidationError shape, as `loc.join(".")` → `msg`; the first message for a key is kept.
 */
const issues = (response: { readonly status: number; readonly body: unknown; readonly text: string }) => {
  expect(response.status).toBe(422)
  expectNoInternals(response.text)
  const errors = (response.body as { detail: { code: string; params: { errors: Array<{ loc: Array<unknown>; msg: string }> } } })
    .detail.params.errors
  const byKey: Record<string, string> = {}
  for (const error of errors) byKey[error.loc.join(".")] ??= error.msg
  return byKey
}

/** A request fetch refuses to send (TRACE), through node:http. */
const rawMethod = (method: string, path: string) =>
  Effect.flatMap(TestServer, ({ url }) =>
    Effect.async<{ status: number; allow: string | undefined; body: string }>((resume) => {
      const request = http.request(url + path, { method, headers: { "x-gloss-api-key": OWNER.apiKey } }, (response) => {
        let body = ""
        response.on("data", (chunk) => (body += chunk))
        response.on("end", () =>
          resume(Effect.succeed({ status: response.statusCode ?? 0, allow: response.headers.allow, body })))
      })
      request.end()
    }))

const tokenOf = (username: string, password: string) =>
  Effect.map(
    raw("/api/v1/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username, password }).toString()
    }),
    (response) => (response.body as { access_token: string }).access_token
  )

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 60_000 })("hardening", (it) => {
      it.effect("a JSON endpoint refuses other media types with 415; no content type is read as JSON", () =>
        Effect.gen(function*() {
          const json = JSON.stringify({ name: unique("mt") })
          const form = new FormData()
          form.set("name", unique("mt"))
          const bodies: ReadonlyArray<[Record<string, string>, string | FormData]> = [
            [{ "content-type": "multipart/form-data" }, json],
            [{ "content-type": "multipart/form-data; boundary=xyz" }, json],
            [{}, form],
            [{ "content-type": "application/x-www-form-urlencoded" }, "name=abc"],
            [{ "content-type": "text/plain" }, json]
          ]
          for (const [headers, body] of bodies) {
            const response = yield* raw("/api/v1/workspaces", {
              method: "POST",
              headers: { "x-gloss-api-key": OWNER.apiKey, ...headers },
              body
            })
            expect(response.status).toBe(415)
            expect(response.body).toEqual({ detail: "Unsupported Media Type: send the request body as application/json" })
          }
          // fetch labels a string body text/plain; a Blob without a type goes without a content type.
          const untyped = yield* raw("/api/v1/workspaces", {
            method: "POST",
            headers: { "x-gloss-api-key": OWNER.apiKey },
            body: new Blob([json])
          })
          expect(untyped.status).toBe(201)
          // Records bulk reads its body itself: the same rule applies.
          const dataset = yield* publishedDataset()
          const bulk = yield* raw(datasetPath(dataset, "/records/bulk"), {
            method: "POST",
            headers: { "x-gloss-api-key": OWNER.apiKey, "content-type": "multipart/form-data" },
            body: "{}"
          })
          expect(bulk.status).toBe(415)
        }))

      it.effect("POST /token takes a form (urlencoded or multipart); a broken one is a 4xx, never a 500", () =>
        Effect.gen(function*() {
          const form = new FormData()
          form.set("username", OWNER.username)
          form.set("password", OWNER.password)
          expect((yield* raw("/api/v1/token", { method: "POST", body: form })).status).toBe(201)
          const noBoundary = yield* raw("/api/v1/token", {
            method: "POST",
            headers: { "content-type": "multipart/form-data" },
            body: "username=owner"
          })
          expect(noBoundary.status).toBe(415)
          const broken = yield* raw("/api/v1/token", {
            method: "POST",
            headers: { "content-type": "multipart/form-data; boundary=abc" },
            body: "not multipart at all"
          })
          expect(issues(broken)).toHaveProperty("body")
        }))

      it.effect("a body nested 100 000 levels deep is refused with 422 before anything walks it", () =>
        Effect.gen(function*() {
          const dataset = yield* publishedDataset()
          // Written out: JSON.stringify itself overflows the stack on a value this deep.
          const deep = "[".repeat(100_000) + "]".repeat(100_000)
          const bodies: ReadonlyArray<[string, string]> = [
            ["/api/v1/workspaces", `{"name": ${deep}}`],
            [datasetPath(dataset, "/records/bulk"), `{"items": [{"fields": {"text": "x"}, "metadata": {"x": ${deep}}}]}`],
            ["/api/v1/me/responses/bulk", deep]
          ]
          for (const [path, body] of bodies) {
            const response = yield* raw(path, {
              method: "POST",
              headers: { "x-gloss-api-key": OWNER.apiKey, "content-type": "application/json" },
              body
            })
            expect(issues(response)).toEqual({
              body: "The request body nests objects and arrays more than 64 levels deep"
            })
          }
          // Brackets inside strings are text, not nesting.
          const name = unique("brackets")
          const inString = yield* send("POST", "/api/v1/datasets", {
            name,
            workspace_id: (yield* workspace()).id,
            guidelines: "[".repeat(200)
          })
          expect(inString.status).toBe(201)
        }))

      it.effect("JSON values nested deeper than 32 levels are refused with 422 naming the key", () =>
        Effect.gen(function*() {
          const w = yield* workspace()
          const deepMetadata = yield* send("POST", "/api/v1/datasets", {
            name: unique("deep"),
            workspace_id: w.id,
            metadata: { ok: 1, x: nested(32) }
          })
          expect(issues(deepMetadata)).toMatchObject({ "metadata.x": "exceeds the maximum nesting depth of 32" })
          const atLimit = yield* send("POST", "/api/v1/datasets", {
            name: unique("deep"),
            workspace_id: w.id,
            metadata: { x: nested(31) }
          })
          expect(atLimit.status).toBe(201)
          const terms = yield* send("POST", datasetPath(atLimit.body as never, "/metadata-properties"), {
            name: "t",
            title: "T",
            settings: { type: "terms", values: ["a", nested(40)] }
          })
          expect(Object.values(issues(terms))).toContain("exceeds the maximum nesting depth of 32")
        }))

      it.effect("TRACE and any other method a path does not take answer 405 with Allow; unknown paths stay 404", () =>
        Effect.gen(function*() {
          const trace = yield* rawMethod("TRACE", "/api/v1/workspaces")
          expect(trace).toEqual({ status: 405, allow: "POST", body: JSON.stringify({ detail: "Method Not Allowed" }) })
          const get = yield* rawMethod("GET", "/api/v1/workspaces")
          expect([get.status, get.allow]).toEqual([405, "POST"])
          const put = yield* rawMethod("PUT", "/api/v1/me")
          expect([put.status, put.allow]).toEqual([405, "GET, HEAD"])
          const options = yield* rawMethod("OPTIONS", `/api/v1/users/${crypto.randomUUID()}`)
          expect(options.status).toBe(405)
          expect(options.allow?.split(", ").sort()).toEqual(["DELETE", "GET", "HEAD", "PATCH"])
          expect((yield* rawMethod("TRACE", "/api/v1/nothing-here")).status).toBe(404)
          expect((yield* rawMethod("GET", "/api/v1/nothing-here")).status).toBe(404)
          // A path a template matches but the router does not (Schemathesis found one): a 404, never a 405 for GET.
          const odd = yield* rawMethod("GET", "/api/v1/oauth2/providers/%E1/access-token")
          expect(odd.status).toBe(404)
        }))

      it.effect("credentials that disagree are refused with 401: two different keys, or a key and another user's token", () =>
        Effect.gen(function*() {
          const alice = yield* userWith("annotator")
          const aliceToken = yield* tokenOf(alice.user.username, "password-1234")
          const ownerToken = yield* tokenOf(OWNER.username, OWNER.password)
          const me = (headers: Record<string, string>) => Effect.map(raw("/api/v1/me", { headers }), (r) => r.status)
          const key = OWNER.apiKey
          expect(yield* me({ "x-gloss-api-key": key, "x-argilla-api-key": key })).toBe(200)
          expect(yield* me({ "x-gloss-api-key": key, "x-argilla-api-key": "wrong" })).toBe(401)
          expect(yield* me({ "x-gloss-api-key": "wrong", "x-argilla-api-key": key })).toBe(401)
          expect(yield* me({ "x-gloss-api-key": key, "x-argilla-api-key": alice.user.api_key! })).toBe(401)
          expect(yield* me({ "x-gloss-api-key": key, authorization: `Bearer ${aliceToken}` })).toBe(401)
          expect(yield* me({ "x-argilla-api-key": key, authorization: `Bearer ${aliceToken}` })).toBe(401)
          expect(yield* me({ "x-gloss-api-key": "wrong", authorization: `Bearer ${ownerToken}` })).toBe(401)
          expect(yield* me({ "x-gloss-api-key": key, authorization: `Bearer ${ownerToken}` })).toBe(200)
          // A private Hugging Face Space's proxy needs its own token in Authorization, beside the API key.
          expect(yield* me({ "x-argilla-api-key": key, authorization: "Bearer hf_notours" })).toBe(200)
          expect(yield* me({ authorization: `Bearer ${aliceToken}` })).toBe(200)
        }))

      it.effect("control characters in names are refused with 422; free text keeps its line breaks", () =>
        Effect.gen(function*() {
          const w = yield* workspace()
          for (const bad of ["a\u0000b", "a\u0007b", "a\nb", "a\u007fb", "a\u0085b", "a\u202eb"]) {
            const user = yield* send("POST", "/api/v1/users", { first_name: "A", username: bad, password: "12345678" })
            expect(issues(user)).toHaveProperty("username")
            const first = yield* send("POST", "/api/v1/users", { first_name: bad, username: unique("u"), password: "12345678" })
            expect(issues(first)).toHaveProperty("first_name")
            const dataset = yield* send("POST", "/api/v1/datasets", { name: bad, workspace_id: w.id })
            expect(issues(dataset)).toHaveProperty("name")
          }
          const { user } = yield* userWith("annotator")
          expect(issues(yield* send("PATCH", `/api/v1/users/${user.id}`, { username: "x\u0000" }))).toHaveProperty("username")
          expect(issues(yield* send("PATCH", `/api/v1/users/${user.id}`, { last_name: "y\tz" }))).toHaveProperty("last_name")
          expect((yield* send("POST", "/api/v1/workspaces", { name: "ws\u0000" })).status).toBe(422)
          const multiline = yield* send("POST", "/api/v1/datasets", {
            name: unique("Guides ü"),
            workspace_id: w.id,
            guidelines: "# Title\n\n\tIndented line\r\n"
          })
          expect(multiline.status).toBe(201)
          const nul = yield* send("PATCH", `/api/v1/datasets/${(multiline.body as Json).id}`, { guidelines: "a\u0000b" })
          expect(issues(nul).guidelines).toMatch(/U\+0000 at position 1/)
        }))

      it.effect("the last owner can be neither deleted nor demoted (422); with another owner both work", () =>
        Effect.gen(function*() {
          const me = (yield* raw("/api/v1/me", { headers: { "x-gloss-api-key": OWNER.apiKey } })).body as Json
          const deleted = yield* send("DELETE", `/api/v1/users/${me.id}`)
          expect(deleted).toMatchObject({
            status: 422,
            body: { detail: "The last owner cannot be deleted: make another user an owner first" }
          })
          const demoted = yield* send("PATCH", `/api/v1/users/${me.id}`, { role: "admin" })
          expect(demoted.status).toBe(422)
          expect((demoted.body as { detail: string }).detail).toMatch(/last owner/)
          // Another owner: now each may go.
          const other = yield* userWith("owner")
          const otherDemotes = yield* send("PATCH", `/api/v1/users/${other.user.id}`, { role: "annotator" }, other.user.api_key)
          expect(otherDemotes.status).toBe(200)
          const again = yield* userWith("owner")
          expect((yield* send("DELETE", `/api/v1/users/${again.user.id}`)).status).toBe(200)
          expect((yield* send("DELETE", `/api/v1/users/${me.id}`)).status).toBe(422)
        }))
    })
  })
}

import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { dialects } from "../support/databases.js"
import { unique, workspace } from "../support/fixtures.js"
import { OWNER, raw, TestServerLive } from "../support/server.js"

const headers = { "content-type": "application/json", "x-gloss-api-key": OWNER.apiKey }
const post = (path: string, body: string, extra: Record<string, string> = {}) =>
  raw(path, { method: "POST", headers: { ...headers, ...extra }, body })

/** Nothing a client sends may produce a 500 or leak a stack trace. */
const expectNoInternals = (text: string) => {
  expect(text).not.toMatch(/\n\s+at /)
  expect(text).not.toMatch(/node_modules|\.ts:\d+/)
}

const validationError = (status: number, body: unknown, text: string) => {
  expect(status).toBe(422)
  expect(body).toMatchObject({ detail: { code: "argilla.api.errors::ValidationError", params: { errors: expect.any(Array) } } })
  expectNoInternals(text)
}

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect, { GLOSS_MAX_REQUEST_BODY_MB: "1" }), { excludeTestServices: true, timeout: 60_000 })(
      "bad input",
      (it) => {
        it.effect("malformed JSON answers 422 naming the body", () =>
          Effect.gen(function*() {
            for (const body of ["{bad", "{\"name\": ", "[1,2", "nul"]) {
              const response = yield* post("/api/v1/workspaces", body)
              expect(response.status).toBe(422)
              expect(response.body).toEqual({
                detail: {
                  code: "argilla.api.errors::ValidationError",
                  params: { errors: [{ loc: ["body"], msg: "The request body is not valid JSON", type: "json_invalid" }] }
                }
              })
            }
          }))

        it.effect("wrong types, unknown enum values, missing fields and over-long strings answer 422 with the field", () =>
          Effect.gen(function*() {
            const cases: ReadonlyArray<[string, unknown, string]> = [
              ["/api/v1/workspaces", { name: 12 }, "name"],
              ["/api/v1/workspaces", [], ""],
              ["/api/v1/workspaces", null, ""],
              ["/api/v1/workspaces", { name: "x".repeat(201) }, "name"],
              ["/api/v1/users", { first_name: "a", username: unique("u"), password: "12345678", role: "root" }, "role"],
              ["/api/v1/users", { first_name: "a", username: unique("u"), password: true }, "password"],
              ["/api/v1/users", { first_name: "a".repeat(201), username: unique("u"), password: "12345678" }, "first_name"],
              ["/api/v1/users", { username: unique("u"), password: "12345678" }, "first_name"]
            ]
            for (const [path, payload, field] of cases) {
              const response = yield* post(path, JSON.stringify(payload))
              validationError(response.status, response.body, response.text)
              const errors = (response.body as { detail: { params: { errors: Array<{ loc: Array<string> }> } } })
                .detail.params.errors
              if (field !== "") expect(errors.map((e) => e.loc.join("."))).toContain(field)
            }
          }))

        it.effect("a non-UUID id in the path answers 422, never 404 or 500", () =>
          Effect.gen(function*() {
            for (const path of ["/api/v1/users/123", "/api/v1/workspaces/not-a-uuid", "/api/v1/workspaces/x/users"]) {
              const response = yield* raw(path, { headers })
              validationError(response.status, response.body, response.text)
            }
            const w = yield* workspace()
            const response = yield* raw(`/api/v1/workspaces/${w.id}/users/zzz`, { method: "DELETE", headers })
            validationError(response.status, response.body, response.text)
          }))

        it.effect("unknown body keys are ignored, as the contract says", () =>
          Effect.gen(function*() {
            const name = unique("extra")
            const response = yield* post("/api/v1/workspaces", JSON.stringify({ name, colour: "blue" }))
            expect(response.status).toBe(201)
            expect(response.body).not.toHaveProperty("colour")
          }))

        it.effect("a body over GLOSS_MAX_REQUEST_BODY_MB answers 413, declared or streamed", () =>
          Effect.gen(function*() {
            const big = JSON.stringify({ name: "x".repeat(1024 * 1024 + 10) })
            const declared = yield* post("/api/v1/workspaces", big)
            expect(declared.status).toBe(413)
            expect(declared.body).toEqual({
              detail: "The request body is larger than 1 MB (GLOSS_MAX_REQUEST_BODY_MB)"
            })
            // Without a content-length the limit is enforced while reading.
            const chunks = new ReadableStream<Uint8Array>({
              start(controller) {
                controller.enqueue(new TextEncoder().encode(big))
                controller.close()
              }
            })
            const streamed = yield* raw("/api/v1/workspaces", {
              method: "POST",
              headers,
              body: chunks,
              duplex: "half"
            } as RequestInit)
            expect(streamed.status).toBe(413)
            expect(streamed.body).toEqual(declared.body)
            // A chunked body within the limit is read as usual.
            const small = new ReadableStream<Uint8Array>({
              start(controller) {
                controller.enqueue(new TextEncoder().encode(JSON.stringify({ name: unique("chunked") })))
                controller.close()
              }
            })
            const accepted = yield* raw("/api/v1/workspaces", {
              method: "POST",
              headers,
              body: small,
              duplex: "half"
            } as RequestInit)
            expect(accepted.status).toBe(201)
          }))

        it.effect("credentials are checked before the body: a bad body without a key is 401", () =>
          Effect.gen(function*() {
            const response = yield* raw("/api/v1/workspaces", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: "{bad"
            })
            expect(response.status).toBe(401)
          }))
      }
    )
  })
}

/**
 * Hostile requests a schema fuzzer does not think of, kept here so they cannot come back: lone surrogates wherever
 * text is stored or searched (PostgreSQL cannot store them), bytes that are not UTF-8, a huge search text, webhooks
 * aimed at the server's own network, credentials that disagree, and answers a browser could sniff as another type.
 * Each must be a 4xx in the contract's shape, on SQLite and PostgreSQL, never a 5xx.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Dataset } from "../../src/domain/Dataset.js"
import { dialects } from "../support/databases.js"
import { datasetPath, publishedDataset, send } from "../support/datasets.js"
import { unique, userWith, workspace } from "../support/fixtures.js"
import { OWNER, raw, TestServerLive } from "../support/server.js"

type Json = Record<string, unknown>
interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: unknown
  readonly text: string
}

const LONE = ["\ud800", "\udfff", "a\ud83d", "\ude00b"] as const

const validationLocs = (answer: Answer) =>
  (answer.body as { detail: { params: { errors: Array<{ loc: Array<unknown> }> } } }).detail.params.errors.map((e) => e.loc)

/** A 4xx (`status` when given) in the contract's shape: no 5xx, no stack trace, and never sniffable. */
const refused = (answer: Answer, status?: number) => {
  expect(answer.status, answer.text).toBeLessThan(500)
  expect(answer.status, answer.text).toBeGreaterThanOrEqual(400)
  if (status !== undefined) expect(answer.status, answer.text).toBe(status)
  expect(answer.text).not.toMatch(/\n\s+at |node_modules/)
  expect(answer.body).toHaveProperty("detail")
  expect(answer.headers.get("x-content-type-options")).toBe("nosniff")
}

/** `publishedDataset` (text field `text`, label question `label`) with a terms metadata property `source`. */
const dataset = (w?: Parameters<typeof publishedDataset>[0]) =>
  Effect.gen(function*() {
    const published = yield* publishedDataset(w)
    const source = { name: "source", title: "Source", settings: { type: "terms" } }
    expect((yield* send("POST", datasetPath(published, "/metadata-properties"), source)).status).toBe(201)
    return published
  })

const records = (d: Dataset) => Effect.map(send("GET", datasetPath(d, "/records")), (answer) => (answer.body as Json).total)

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 60_000 })("hostile inputs", (it) => {
      it.effect("a lone surrogate in a record field (create and upsert) is a 422 naming it; nothing is stored", () =>
        Effect.gen(function*() {
          const d = yield* dataset()
          for (const text of LONE) {
            for (const method of ["POST", "PUT"]) {
              const answer = yield* send(method, datasetPath(d, "/records/bulk"), {
                items: [{ fields: { text: "fine" } }, { fields: { text }, metadata: { source: "web" } }]
              })
              refused(answer, 422)
              expect(validationLocs(answer)).toEqual([["items", 1, "fields", "text"]])
            }
          }
          // In a metadata value, an external id and a key, too.
          for (const item of [
            { fields: { text: "ok" }, metadata: { source: "\ud800" } },
            { fields: { text: "ok" }, external_id: "e\udfff" },
            { fields: { "\ud800": "ok" } }
          ]) {
            refused(yield* send("POST", datasetPath(d, "/records/bulk"), { items: [item] }), 422)
          }
          expect(yield* records(d)).toBe(0)
        }))

      it.effect("a lone surrogate in a response value, sent by an annotator, is a 422", () =>
        Effect.gen(function*() {
          const w = yield* workspace()
          const d = yield* dataset(w)
          const created = yield* send("POST", datasetPath(d, "/records/bulk"), { items: [{ fields: { text: "one" } }] })
          const record = (created.body as { items: Array<Json> }).items[0]?.id as string
          const { user } = yield* userWith("annotator", [w])
          for (const values of [{ label: { value: "\ud800" } }, { label: { value: "yes", note: "\udfff" } }]) {
            refused(yield* send("POST", `/api/v1/records/${record}/responses`, { status: "submitted", values }, user.api_key), 422)
            const bulk = yield* send("POST", "/api/v1/me/responses/bulk", {
              items: [{ record_id: record, status: "draft", values }]
            }, user.api_key)
            refused(bulk, 422)
          }
          const fine = yield* send("POST", `/api/v1/records/${record}/responses`, {
            status: "submitted",
            values: { label: { value: "yes" } }
          }, user.api_key)
          expect(fine.status).toBe(201)
        }))

      it.effect("a lone surrogate in a terms filter value, a search text or a dataset name is a 422", () =>
        Effect.gen(function*() {
          const w = yield* workspace()
          const d = yield* dataset(w)
          for (const path of ["/records/search", "/records/search?include=responses"]) {
            for (const mine of [false, true]) {
              const url = mine ? `/api/v1/me${datasetPath(d, path).slice("/api/v1".length)}` : datasetPath(d, path)
              const terms = yield* send("POST", url, {
                filters: { and: [{ type: "terms", scope: { entity: "metadata", metadata_property: "source" }, values: ["\ud800"] }] }
              })
              refused(terms, 422)
              refused(yield* send("POST", url, { query: { text: { q: "x\udfff" } } }), 422)
            }
          }
          refused(yield* send("POST", "/api/v1/datasets", { name: `ds-\ud800`, workspace_id: w.id }), 422)
          refused(yield* send("PATCH", datasetPath(d), { name: "\udfff" }), 422)
          refused(yield* send("POST", "/api/v1/workspaces", { name: unique("ws\ud800") }), 422)
        }))

      it.effect("the NUL character in a record field, a response value or a terms filter value is no 5xx (422 on PostgreSQL)", () =>
        Effect.gen(function*() {
          const w = yield* workspace()
          const d = yield* dataset(w)
          // SQLite stores NUL; PostgreSQL cannot, and its refusal is answered with 422.
          const stored = dialect === "sqlite"
          const created = yield* send("POST", datasetPath(d, "/records/bulk"), { items: [{ fields: { text: "a\u0000b" } }] })
          if (stored) expect(created.status).toBe(201)
          else refused(created, 422)
          const fine = yield* send("POST", datasetPath(d, "/records/bulk"), { items: [{ fields: { text: "one" } }] })
          const record = (fine.body as { items: Array<Json> }).items[0]?.id as string
          const { user } = yield* userWith("annotator", [w])
          const answer = yield* send("POST", `/api/v1/records/${record}/responses`, {
            status: "draft",
            values: { label: { value: "yes", note: "x\u0000" } }
          }, user.api_key)
          expect(answer.status, answer.text).toBeLessThan(500)
          const terms = yield* send("POST", datasetPath(d, "/records/search"), {
            filters: { and: [{ type: "terms", scope: { entity: "metadata", metadata_property: "source" }, values: ["\u0000"] }] }
          })
          if (stored) expect(terms.status).toBe(200)
          else refused(terms, 422)
          refused(yield* send("POST", "/api/v1/datasets", { name: "ds\u0000", workspace_id: w.id }), 422)
        }))

      it.effect("a body that is not UTF-8 is refused, whatever its length header", () =>
        Effect.gen(function*() {
          const w = yield* workspace()
          const d = yield* dataset(w)
          const bytes = (json: string, bad: ReadonlyArray<number>) => {
            const [head, tail] = json.split("@")
            return Buffer.concat([Buffer.from(head ?? ""), Buffer.from(bad), Buffer.from(tail ?? "")])
          }
          // A stray continuation byte, an overlong encoding, a surrogate encoded in three bytes, a cut-off sequence.
          for (const bad of [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
            const bodies: ReadonlyArray<[string, Buffer]> = [
              ["/api/v1/workspaces", bytes(`{"name": "ws@"}`, bad)],
              ["/api/v1/datasets", bytes(`{"name": "ds@", "workspace_id": "${w.id}"}`, bad)],
              [datasetPath(d, "/records/bulk"), bytes(`{"items": [{"fields": {"text": "@"}}]}`, bad)]
            ]
            for (const [path, body] of bodies) {
              for (const chunked of [false, true]) {
                const answer = yield* raw(path, {
                  method: "POST",
                  headers: { "content-type": "application/json", "x-gloss-api-key": OWNER.apiKey },
                  // A stream is sent chunked, without a length.
                  body: chunked ? new Blob([body]).stream() : body,
                  ...(chunked ? { duplex: "half" } : {})
                } as RequestInit)
                refused(answer)
              }
            }
          }
          expect(yield* records(d)).toBe(0)
        }))

      it.effect("a search text of 100 000 characters is a 422", () =>
        Effect.gen(function*() {
          const d = yield* dataset()
          for (const url of [datasetPath(d, "/records/search"), `/api/v1/me/datasets/${d.id}/records/search`]) {
            refused(yield* send("POST", url, { query: { text: { q: "a".repeat(100_000) } } }), 422)
            refused(yield* send("POST", url, { query: { text: { q: "word ".repeat(20_000) } } }), 422)
          }
        }))

      it.effect("a webhook aimed at the cloud metadata service or the server's own PostgreSQL is a 422", () =>
        Effect.gen(function*() {
          for (const url of ["http://169.254.169.254/latest", "http://127.0.0.1:5432/"]) {
            refused(yield* send("POST", "/api/v1/webhooks", { url, events: ["dataset.published"] }), 422)
          }
        }))

      it.effect("a valid key beside a wrong bearer token or an empty key header is a 401", () =>
        Effect.gen(function*() {
          const disagreeing: ReadonlyArray<Record<string, string>> = [
            { "x-gloss-api-key": OWNER.apiKey, authorization: "Bearer abc" },
            { "x-argilla-api-key": OWNER.apiKey, "x-gloss-api-key": "" }
          ]
          for (const headers of disagreeing) refused(yield* raw("/api/v1/me", { headers }), 401)
          expect((yield* raw("/api/v1/me", { headers: { "x-gloss-api-key": OWNER.apiKey } })).status).toBe(200)
        }))

      it.effect("every answer carries X-Content-Type-Options: nosniff (JSON, errors, docs, the UI's paths)", () =>
        Effect.gen(function*() {
          const key = { "x-gloss-api-key": OWNER.apiKey }
          const answers = [
            yield* raw("/api/v1/me", { headers: key }),
            yield* raw("/api/v1/status"),
            yield* raw("/api/v1/me"),
            yield* raw("/api/v1/nothing-here", { headers: key }),
            yield* raw("/api/v1/workspaces", { method: "POST", headers: { ...key, "content-type": "application/json" }, body: "{" }),
            yield* raw("/api/v1/openapi.json"),
            yield* raw("/api/v1/docs"),
            yield* raw("/", { headers: { accept: "text/html" } }),
            yield* raw("/favicon.ico"),
            yield* raw("/docs", { redirect: "manual" })
          ]
          for (const answer of answers) {
            expect(answer.status).not.toBe(500)
            expect(answer.headers.get("x-content-type-options")).toBe("nosniff")
          }
        }))
    })
  })
}

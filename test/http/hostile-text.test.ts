/**
 * What the body checks refuse, exactly, and what they must let through: a lone surrogate escape is a 422 naming
 * where it is (a value or a key), while surrogate pairs sent escaped (Python's `json.dumps` escapes every emoji) and
 * an escaped backslash before `ud800` are ordinary text; bytes that are not UTF-8 are a 422 on JSON and form bodies.
 * Free text in a query string cannot carry a lone surrogate (percent-decoding yields U+FFFD or fails), and is no 5xx.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { scanJson } from "../../src/codecs/jsonScan.js"
import { dialects } from "../support/databases.js"
import { datasetPath, publishedDataset, send } from "../support/datasets.js"
import { OWNER, raw, TestServerLive } from "../support/server.js"

type Json = Record<string, unknown>

const validation = (errors: ReadonlyArray<{ loc: ReadonlyArray<string | number>; msg: string; type: string }>) => ({
  detail: { code: "argilla.api.errors::ValidationError", params: { errors } }
})
const LONE_MSG = "Text must be well-formed Unicode: a lone surrogate (\\ud800-\\udfff) cannot be stored"
const NOT_UTF8 = validation([{ loc: ["body"], msg: "The request body is not valid UTF-8", type: "value_error" }])

/** A JSON body sent as written (the escapes stay escapes). */
const sendText = (method: string, path: string, body: string | Buffer, contentType = "application/json") =>
  raw(path, { method, headers: { "content-type": contentType, "x-gloss-api-key": OWNER.apiKey }, body })

describe("the pass over a body's text before parsing", () => {
  it("finds escapes of half a surrogate pair without the other half, and only those", () => {
    const lone = (json: string) => scanJson(json, 64).loneSurrogate
    for (const json of [String.raw`"\ud800"`, String.raw`["ok", "\uDFFF"]`, String.raw`{"\udbff": 1}`, String.raw`"\ude00\ud83d"`, String.raw`"\ud83d\\ude00"`, String.raw`"\\\ud800"`, String.raw`"a\ud83d"`, String.raw`"\ud83d\u0041"`]) {
      expect({ json, lone: lone(json) }).toEqual({ json, lone: true })
    }
    for (const json of [String.raw`"\ud83d\ude00"`, String.raw`"\uD83D\uDE00\u00e9\n\""`, String.raw`"\\ud800"`, String.raw`"\\"`, `"😀"`, String.raw`{"a": "\"", "b": "\ud800`]) {
      expect({ json, lone: lone(json) }).toEqual({ json, lone: false })
    }
  })

  it("counts nesting outside strings only, whatever the escapes in them", () => {
    expect(scanJson("[[[1]]]", 3).tooDeep).toBe(false)
    expect(scanJson("[[[[1]]]]", 3).tooDeep).toBe(true)
    expect(scanJson(String.raw`[["[[[[", "\"[[[[\\", "]]"], {"k\"": [[]]}]`, 4).tooDeep).toBe(false)
    expect(scanJson(String.raw`["\\", [[[1]]]]`, 3).tooDeep).toBe(true)
  })
})

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 60_000 })("hostile text", (it) => {
      it.effect("a lone surrogate is a 422 naming the value or the key that holds it", () =>
        Effect.gen(function*() {
          const dataset = yield* publishedDataset()
          const bulk = datasetPath(dataset, "/records/bulk")
          const cases: ReadonlyArray<[string, ReadonlyArray<string | number>]> = [
            [String.raw`{"items": [{"fields": {"text": "ok"}}, {"fields": {"text": "a\uD800b"}}]}`, ["items", 1, "fields", "text"]],
            [String.raw`{"items": [{"fields": {"text": "\udc00 first"}}]}`, ["items", 0, "fields", "text"]],
            [String.raw`{"items": [{"fields": {"text": "ok"}, "metadata": {"k\ud800": 1}}]}`, ["items", 0, "metadata", "k\ud800"]],
            // A low half before a high one is no pair.
            [String.raw`{"items": [{"fields": {"text": "\ude00\ud83d"}}]}`, ["items", 0, "fields", "text"]]
          ]
          for (const [body, loc] of cases) {
            const answer = yield* sendText("POST", bulk, body)
            expect({ status: answer.status, body: answer.body }).toEqual({
              status: 422,
              body: validation([{ loc, msg: LONE_MSG, type: "value_error" }])
            })
          }
          expect(((yield* send("GET", datasetPath(dataset, "/records"))).body as Json).total).toBe(0)
        }))

      it.effect("surrogate pairs sent escaped, emoji sent as UTF-8 and an escaped backslash before ud800 are stored", () =>
        Effect.gen(function*() {
          const dataset = yield* publishedDataset()
          const body = String.raw`{"items": [{"fields": {"text": "\ud83d\ude00 \uD83D\uDE00 😀 \\ud800"}, "metadata": {"\ud83d\ude00": "x"}}]}`
          const created = yield* sendText("POST", datasetPath(dataset, "/records/bulk"), body)
          expect(created.status).toBe(201)
          const [record] = (created.body as { items: Array<Json> }).items
          expect(record?.fields).toEqual({ text: "😀 😀 😀 \\ud800" })
          expect(record?.metadata).toEqual({ "😀": "x" })
          const found = yield* send("POST", datasetPath(dataset, "/records/search"), { query: { text: { q: "😀" } } })
          expect(found.status).toBe(200)
        }))

      it.effect("a JSON or form body that is not UTF-8 is a 422 saying so", () =>
        Effect.gen(function*() {
          const bad = Buffer.concat([Buffer.from(`{"name": "ws-`), Buffer.from([0xc3, 0x28]), Buffer.from(`"}`)])
          const json = yield* sendText("POST", "/api/v1/workspaces", bad)
          expect({ status: json.status, body: json.body }).toEqual({ status: 422, body: NOT_UTF8 })
          const form = Buffer.concat([Buffer.from("username=owner&password=owner-"), Buffer.from([0xff]), Buffer.from("password")])
          const token = yield* sendText("POST", "/api/v1/token", form, "application/x-www-form-urlencoded")
          expect({ status: token.status, body: token.body }).toEqual({ status: 422, body: NOT_UTF8 })
          // The same form in UTF-8 signs in.
          const fine = yield* sendText("POST", "/api/v1/token", `username=owner&password=${OWNER.password}`, "application/x-www-form-urlencoded")
          expect(fine.status).toBe(201)
        }))

      it.effect("a query string with an encoded lone surrogate, bad UTF-8 or NUL is no 5xx", () =>
        Effect.gen(function*() {
          for (const name of ["%ED%A0%80", "%FF", "%00", "%uD800"]) {
            const answer = yield* raw(`/api/v1/me/datasets?name=${name}`, { headers: { "x-gloss-api-key": OWNER.apiKey } })
            expect(answer.status, answer.text).toBeLessThan(500)
          }
        }))
    })
  })
}

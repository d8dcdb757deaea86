/**
 * Request bodies are read as Argilla's pydantic reads them in lax mode (Argilla's own settings page sends
 * `"min_submitted": "2"`), responses stay strict, and a 422 names only the error that matters.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { dialects } from "../support/databases.js"
import { datasetPath, draftDataset, publishedDataset, send } from "../support/datasets.js"
import { TestServerLive } from "../support/server.js"

type Issue = { readonly loc: ReadonlyArray<string | number>; readonly msg: string; readonly type: string }

const errorsOf = (response: { readonly status: number; readonly body: unknown; readonly text: string }) => {
  expect(response.status).toBe(422)
  expect(response.text).not.toMatch(/Expected undefined|Expected null/)
  return (response.body as { detail: { params: { errors: ReadonlyArray<Issue> } } }).detail.params.errors
}

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 60_000 })("lax request bodies", (it) => {
      it.effect("PATCH /datasets/{id} takes min_submitted as the string \"2\" (Argilla's settings page) and answers 2", () =>
        Effect.gen(function*() {
          const dataset = yield* publishedDataset()
          const patched = yield* send("PATCH", datasetPath(dataset), {
            distribution: { strategy: "overlap", min_submitted: "2" }
          })
          expect(patched.status).toBe(200)
          expect(patched.body).toMatchObject({ distribution: { strategy: "overlap", min_submitted: 2 } })
          const read = yield* send("GET", datasetPath(dataset))
          expect((read.body as { distribution: unknown }).distribution).toEqual({ strategy: "overlap", min_submitted: 2 })
        }))

      it.effect("booleans and numbers in settings are read from pydantic's other spellings", () =>
        Effect.gen(function*() {
          const dataset = yield* draftDataset()
          const flag = yield* send("PATCH", datasetPath(dataset), { allow_extra_metadata: "false" })
          expect(flag.status).toBe(200)
          expect(flag.body).toMatchObject({ allow_extra_metadata: false })
          const question = yield* send("POST", datasetPath(dataset, "/questions"), {
            name: "stars",
            title: "Stars",
            required: "yes",
            settings: { type: "rating", options: [{ value: "1" }, { value: 2.0 }, { value: " 3 " }] }
          })
          expect(question.status).toBe(201)
          expect(question.body).toMatchObject({ required: true, settings: { options: [{ value: 1 }, { value: 2 }, { value: 3 }] } })
          const property = yield* send("POST", datasetPath(dataset, "/metadata-properties"), {
            name: "score",
            title: "Score",
            settings: { type: "float", min: "0.5", max: "1e2" }
          })
          expect(property.status).toBe(201)
          expect(property.body).toMatchObject({ settings: { type: "float", min: 0.5, max: 100 } })
          const vectors = yield* send("POST", datasetPath(dataset, "/vectors-settings"), {
            name: "emb",
            title: "Embedding",
            dimensions: "3"
          })
          expect(vectors.status).toBe(201)
          expect(vectors.body).toMatchObject({ dimensions: 3 })
        }))

      it.effect("a nested field that still fails is one error: its place, pydantic's message and type", () =>
        Effect.gen(function*() {
          const dataset = yield* publishedDataset()
          const cases: ReadonlyArray<[unknown, Issue]> = [
            ["abc", {
              loc: ["distribution", "min_submitted"],
              msg: "Input should be a valid integer, unable to parse string as an integer",
              type: "int_parsing"
            }],
            ["2.5", {
              loc: ["distribution", "min_submitted"],
              msg: "Input should be a valid integer, unable to parse string as an integer",
              type: "int_parsing"
            }],
            [2.5, {
              loc: ["distribution", "min_submitted"],
              msg: "Input should be a valid integer, got a number with a fractional part",
              type: "int_from_float"
            }]
          ]
          for (const [min_submitted, issue] of cases) {
            const refused = yield* send("PATCH", datasetPath(dataset), { distribution: { strategy: "overlap", min_submitted } })
            expect(errorsOf(refused)).toEqual([issue])
          }
          // A rule of the declared schema still applies to what the lax reading made of the input.
          const zero = errorsOf(yield* send("PATCH", datasetPath(dataset), {
            distribution: { strategy: "overlap", min_submitted: "0" }
          }))
          expect(zero).toHaveLength(1)
          expect(zero[0]!.loc).toEqual(["distribution", "min_submitted"])
          // Strings are not made from numbers (pydantic v2 refuses that too), and say so once.
          const guidelines = errorsOf(yield* send("PATCH", datasetPath(dataset), { guidelines: 5 }))
          expect(guidelines).toEqual([{ loc: ["guidelines"], msg: "Expected string, actual 5", type: "value_error" }])
        }))

      it.effect("bulk records outside the fast path are read leniently too (suggestion scores, vectors)", () =>
        Effect.gen(function*() {
          const dataset = yield* publishedDataset()
          const questions = yield* send("GET", datasetPath(dataset, "/questions"))
          const question = (questions.body as { items: ReadonlyArray<{ name: string; settings: { type: string } }> }).items[0]!
          expect(question.settings.type).toBe("label_selection")
          const created = yield* send("POST", datasetPath(dataset, "/records/bulk"), {
            items: [{ fields: { text: "a" }, suggestions: [{ question_name: question.name, value: "yes", score: "0.5" }] }]
          })
          expect(created.status).toBe(201)
          const record = (created.body as { items: ReadonlyArray<{ id: string }> }).items[0]!
          const suggestions = yield* send("GET", `/api/v1/records/${record.id}/suggestions`)
          expect(suggestions.body).toMatchObject({ items: [{ score: 0.5 }] })
        }))
    })
  })
}

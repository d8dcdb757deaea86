/**
 * The training exports (`training-jsonl`, `conll`, `spacy`, `dpo` of `POST /api/gloss/datasets/{id}/exports`): each
 * file's content from the records' final answers, the records left out counted in the job's progress, and the 422
 * for a question that is missing, unknown or of the wrong type; through the typed client on both databases.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { ExportRequest } from "../../src/domain/Export.js"
import { DatasetId } from "../../src/domain/Ids.js"
import { dialects } from "../support/databases.js"
import { expectFailure } from "../support/expect.js"
import { TestServerLive } from "../support/server.js"
import { exported, TEXTS, trainingDataset } from "../support/trainingDataset.js"

type Json = Record<string, any>

const jsonLines = (text: string) => text.trimEnd().split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as Json)

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 120_000 })("training exports", (it) => {
      it.effect("training-jsonl: the settled records with their final values; the others counted as left out", () =>
        Effect.gen(function*() {
          const { admin, ds, ids } = yield* trainingDataset
          const { job, text } = yield* exported(admin.user.api_key, ds.id, { format: "training-jsonl" })
          const lines = jsonLines(text)
          expect(lines.map((line) => line.external_id)).toEqual(["r0", "r2", "r3"])
          expect(lines[0]).toEqual({
            id: ids.get("r0"),
            external_id: "r0",
            fields: { prompt: "Question 0?", text: TEXTS[0], response_a: "first answer 0", response_b: "second answer 0" },
            metadata: {},
            final: {
              entities: [{ start: 0, end: 5, label: "PER" }, { start: 15, end: 23, label: "LOC" }],
              topic: "news",
              preference: [{ value: "response_a", rank: 1 }, { value: "response_b", rank: 2 }, { value: "neither", rank: 2 }],
              better: "response_b"
            }
          })
          expect(lines[1]?.final).toEqual({ topic: "chat" })
          // r1 has an answer and no final answer; r3 has final answers and no answer: settled.
          expect(job.progress).toEqual({
            done: 4,
            total: 4,
            failed: 1,
            errors: [{ id: "final answers", detail: expect.stringMatching(/^1 record was not settled/) }]
          })
          const byQuestion = yield* exported(admin.user.api_key, ds.id, { format: "training-jsonl", question: "entities" })
          expect(jsonLines(byQuestion.text).map((line) => line.external_id)).toEqual(["r0", "r3"])
          expect(byQuestion.job.progress).toMatchObject({
            failed: 2,
            errors: [{ id: "entities", detail: "2 records were without a final answer to `entities`: not written" }]
          })
        }))

      it.effect("conll: whitespace tokens with their offsets and IOB tags, one blank line after each document", () =>
        Effect.gen(function*() {
          const { admin, ds } = yield* trainingDataset
          const { job, text } = yield* exported(admin.user.api_key, ds.id, { format: "conll", question: "entities" })
          expect(text).toBe(
            [
              "Alice 0 5 B-PER",
              "lives 6 11 O",
              "in 12 14 O",
              "New 15 18 B-LOC",
              "York 19 23 I-LOC",
              ". 24 25 O",
              "",
              "Carol 0 5 B-PER",
              "met 6 9 O",
              "Dan 10 13 B-PER",
              "in 14 16 O",
              "Paris 17 22 B-LOC",
              "",
              ""
            ].join("\n")
          )
          expect(job.progress).toMatchObject({ done: 4, failed: 2 })
          expect(job.progress?.errors[0]?.detail).toMatch(/^2 records were without a final answer to `entities`/)
        }))

      it.effect("spacy: the text and the final spans in character offsets, with the record's ids", () =>
        Effect.gen(function*() {
          const { admin, ds, ids } = yield* trainingDataset
          const { text } = yield* exported(admin.user.api_key, ds.id, { format: "spacy", question: "entities" })
          expect(jsonLines(text)).toEqual([
            {
              text: TEXTS[0],
              spans: [{ start: 0, end: 5, label: "PER" }, { start: 15, end: 23, label: "LOC" }],
              meta: { id: ids.get("r0"), external_id: "r0" }
            },
            {
              text: TEXTS[3],
              spans: [{ start: 0, end: 5, label: "PER" }, { start: 10, end: 13, label: "PER" }, { start: 17, end: 22, label: "LOC" }],
              meta: { id: ids.get("r3"), external_id: "r3" }
            }
          ])
        }))

      it.effect("dpo: a pair per two options ranked apart (fields' texts, else the option's), and from a label of two fields", () =>
        Effect.gen(function*() {
          const { admin, ds, ids } = yield* trainingDataset
          const ranking = yield* exported(admin.user.api_key, ds.id, { format: "dpo", question: "preference" })
          const pair = (i: number, chosen: string, rejected: string) => ({
            prompt: `Question ${i}?`,
            chosen,
            rejected,
            id: ids.get(`r${i}`),
            external_id: `r${i}`
          })
          expect(jsonLines(ranking.text)).toEqual([
            // r0 ranks A first and ties B with "neither": two pairs, none between the tied ones.
            pair(0, "first answer 0", "second answer 0"),
            pair(0, "first answer 0", "Neither answer"),
            pair(3, "second answer 3", "first answer 3"),
            pair(3, "second answer 3", "Neither answer"),
            pair(3, "first answer 3", "Neither answer")
          ])
          expect(ranking.job.progress).toMatchObject({ done: 4, failed: 2 })
          const label = yield* exported(admin.user.api_key, ds.id, { format: "dpo", question: "better" })
          expect(jsonLines(label.text)).toEqual([
            pair(0, "second answer 0", "first answer 0"),
            pair(3, "first answer 3", "second answer 3")
          ])
        }))

      it.effect("a training format without its question, with an unknown one, or one of the wrong type is refused (422)", () =>
        Effect.gen(function*() {
          const { admin, ds } = yield* trainingDataset
          const start = (payload: ExportRequest) =>
            admin.client.exports.start({ path: { id: DatasetId.make(ds.id) }, payload })
          yield* expectFailure(start({ format: "conll" }), "Unprocessable", /needs `question`: the name of a span question of the dataset \(it has `entities`\)/)
          yield* expectFailure(start({ format: "spacy", question: "nope" }), "Unprocessable", /no question `nope`/)
          yield* expectFailure(start({ format: "conll", question: "topic" }), "Unprocessable", /needs a span question; `topic` is a label_selection question/)
          yield* expectFailure(start({ format: "dpo", question: "entities" }), "Unprocessable", /needs a ranking or label_selection question/)
          yield* expectFailure(start({ format: "dpo", question: "topic" }), "Unprocessable", /options of `topic` name none/)
          yield* expectFailure(start({ format: "training-jsonl", question: "nope" }), "Unprocessable", /no question `nope`/)
          // Other formats ignore it.
          const csv = yield* start({ format: "csv", question: "nope" })
          expect(csv.status).toBe("queued")
        }))
    })
  })
}

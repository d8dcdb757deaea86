/**
 * A dataset settled for the training exports (test/http/training-exports.test.ts checks the files' content,
 * test/process/training-readback.test.ts reads them with the tools that consume them).
 */
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import type { ExportRequest } from "../../src/domain/Export.js"
import { DatasetId, type RecordId } from "../../src/domain/Ids.js"
import type { FinalAnswerSet } from "../../src/domain/Review.js"
import { settledJob } from "../jobs/support/serverSetups.js"
import { datasetPath, draftDataset, send } from "./datasets.js"
import { userWith, workspace } from "./fixtures.js"
import { clientFor } from "./server.js"

type Json = Record<string, any>

export const TEXTS = [
  "Alice lives in New York .",
  "Bob went  home\tlate",
  "Nothing here",
  "Carol met Dan in Paris"
]

/**
 * A published dataset for training: text fields `prompt`, `text`, `response_a` and `response_b`; a span question
 * `entities` (PER, LOC) on `text`, a ranking `preference` of `response_a`, `response_b` and `neither` (no such
 * field: its option text is used), a label `better` whose options are the two response fields, and a required label
 * `topic`.
 * Alice answered r0, r1 and r2; r0 and r3 are settled on every question, r2 on `topic` only (all it was answered
 * on), r1 not at all; r3 has no answers. Every span starts and ends on a token's edge (whitespace's and spaCy's).
 */
export const trainingDataset = Effect.gen(function*() {
  const w = yield* workspace()
  const ds = yield* draftDataset(w)
  const post = (kind: string, payload: unknown) =>
    Effect.tap(send("POST", datasetPath(ds, `/${kind}`), payload), (answer) => {
      expect(answer.status, JSON.stringify(answer.body)).toBe(201)
    })
  for (const name of ["prompt", "text", "response_a", "response_b"]) {
    yield* post("fields", { name, title: name, settings: { type: "text" } })
  }
  yield* post("questions", {
    name: "entities",
    title: "Entities",
    required: false,
    settings: { type: "span", field: "text", options: [{ value: "PER", text: "Person" }, { value: "LOC", text: "Place" }] }
  })
  yield* post("questions", {
    name: "preference",
    title: "Preference",
    required: false,
    settings: {
      type: "ranking",
      options: [
        { value: "response_a", text: "Answer A" },
        { value: "response_b", text: "Answer B" },
        { value: "neither", text: "Neither answer" }
      ]
    }
  })
  yield* post("questions", {
    name: "better",
    title: "Better",
    required: false,
    settings: { type: "label_selection", options: [{ value: "response_a", text: "A" }, { value: "response_b", text: "B" }] }
  })
  yield* post("questions", {
    name: "topic",
    title: "Topic",
    required: true,
    settings: { type: "label_selection", options: [{ value: "news", text: "News" }, { value: "chat", text: "Chat" }] }
  })
  const published = yield* send("PUT", datasetPath(ds, "/publish"))
  expect(published.status, JSON.stringify(published.body)).toBe(200)
  const alice = yield* userWith("annotator", [w])
  const admin = yield* userWith("admin", [w])
  const submitted = (values: Json) => [{ user_id: alice.user.id, status: "submitted", values }]
  const items = TEXTS.map((text, i) => ({
    external_id: `r${i}`,
    fields: { prompt: `Question ${i}?`, text, response_a: `first answer ${i}`, response_b: `second answer ${i}` },
    metadata: {},
    ...(i === 0 ? { responses: submitted({ entities: { value: [{ start: 0, end: 5, label: "PER" }] }, topic: { value: "news" } }) } : {}),
    ...(i === 1 ? { responses: submitted({ topic: { value: "chat" } }) } : {}),
    ...(i === 2 ? { responses: submitted({ topic: { value: "chat" } }) } : {})
  }))
  const created = yield* send("POST", datasetPath(ds, "/records/bulk"), { items })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  const listed = yield* admin.client.records.list({ path: { id: DatasetId.make(ds.id) }, urlParams: { limit: 10 } })
  const ids = new Map(listed.items.map((record) => [record.external_id, record.id]))
  const settle = (externalId: string, answers: ReadonlyArray<FinalAnswerSet>) =>
    admin.client.review.settle({ path: { id: ids.get(externalId) as RecordId }, payload: { items: answers } })
  yield* settle("r0", [
    { question: "entities", value: [{ start: 0, end: 5, label: "PER" }, { start: 15, end: 23, label: "LOC" }], source: "reviewer" },
    { question: "topic", value: "news", source: "response", source_user_id: alice.user.id },
    {
      question: "preference",
      value: [{ value: "response_a", rank: 1 }, { value: "response_b", rank: 2 }, { value: "neither", rank: 2 }],
      source: "reviewer"
    },
    { question: "better", value: "response_b", source: "reviewer" }
  ])
  yield* settle("r2", [{ question: "topic", value: "chat", source: "response", source_user_id: alice.user.id }])
  yield* settle("r3", [
    {
      question: "entities",
      value: [{ start: 0, end: 5, label: "PER" }, { start: 10, end: 13, label: "PER" }, { start: 17, end: 22, label: "LOC" }],
      source: "reviewer"
    },
    { question: "preference", value: [{ value: "response_b", rank: 1 }, { value: "response_a", rank: 2 }, { value: "neither", rank: 3 }], source: "reviewer" },
    { question: "better", value: "response_a", source: "reviewer" },
    { question: "topic", value: "news", source: "reviewer" }
  ])
  return { ds, admin, alice, ids }
})

/** Starts an export, waits for it, and answers the finished job and the file's text. */
export const exported = (apiKey: string, datasetId: string, request: ExportRequest) =>
  Effect.gen(function*() {
    const client = yield* clientFor(apiKey)
    const started = yield* client.exports.start({ path: { id: DatasetId.make(datasetId) }, payload: request })
    const job = yield* settledJob(apiKey, started.id)
    expect(job.status).toBe("finished")
    const bytes = yield* client.exports.download({ path: { id: started.id } })
    return { job, text: Buffer.from(bytes).toString("utf8") }
  })

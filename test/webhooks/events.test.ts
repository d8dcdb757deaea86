/**
 * Argilla's eleven events arrive, signed, with Argilla's payloads, when their actions happen: on the
 * embedded queue (SQLite, PostgreSQL) and on Redis (standalone, cluster). Only enabled webhooks subscribed to an
 * event receive it.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "@effect/sql"
import { datasetPath, draftDataset, publishedDataset, send } from "../support/datasets.js"
import { unique, userWith, workspace } from "../support/fixtures.js"
import { OWNER } from "../support/server.js"
import { ALL_EVENTS, hook, removeAllHooks } from "./support/hooks.js"
import { type Delivery, distinct, type Envelope } from "./support/receiver.js"
import { backends, eventually, SuiteLive, TheReceiver } from "./support/setup.js"

type Json = Record<string, unknown>
const body = (response: { readonly body: unknown }) => response.body as Json
const items = (response: { readonly body: unknown }) => (response.body as { items: Array<Json> }).items

const NAIVE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/
const ENVELOPE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/
const MESSAGE_ID = /^msg_[A-Za-z0-9_-]{22}$/

const DATASET_KEYS = [
  "allow_extra_metadata", "distribution", "fields", "guidelines", "id", "inserted_at", "last_activity_at",
  "metadata_properties", "name", "questions", "status", "updated_at", "vectors_settings", "workspace"
]
const RECORD_KEYS = ["dataset", "external_id", "fields", "id", "inserted_at", "metadata", "status", "updated_at"]
const RESPONSE_KEYS = ["id", "inserted_at", "record", "status", "updated_at", "user", "values"]

const keys = (value: unknown) => Object.keys(value as Json).sort()
const events = (deliveries: ReadonlyArray<Delivery>): ReadonlyArray<Envelope> =>
  distinct(deliveries).flatMap((delivery) => (delivery.event === undefined ? [] : [delivery.event]))
const ofType = (deliveries: ReadonlyArray<Delivery>, type: string) =>
  events(deliveries).filter((event) => event.type === type).map((event) => event.data)
const countByType = (deliveries: ReadonlyArray<Delivery>) => {
  const counts: Record<string, number> = {}
  for (const event of events(deliveries)) counts[event.type] = (counts[event.type] ?? 0) + 1
  return counts
}

const EXPECTED = {
  "dataset.created": 1,
  "dataset.published": 1,
  "dataset.updated": 2,
  "dataset.deleted": 1,
  "record.created": 2,
  "record.updated": 7,
  "record.completed": 2,
  "record.deleted": 2,
  "response.created": 2,
  "response.updated": 2,
  "response.deleted": 1
}

for (const backend of backends) {
  describe(backend, () => {
    layer(SuiteLive(backend), { excludeTestServices: true, timeout: 180_000 })("webhook events", (it) => {
      it.effect("each of the eleven events arrives, signed, with its payload, at the webhooks that want it", () =>
        Effect.gen(function*() {
          const receiver = yield* TheReceiver
          const [all, onlyCreated, disabled] = [unique("all"), unique("created"), unique("disabled")]
          yield* hook(receiver, all, ALL_EVENTS)
          yield* hook(receiver, onlyCreated, ["dataset.created"])
          const off = yield* hook(receiver, disabled, ALL_EVENTS)
          expect((yield* send("PATCH", `/api/v1/webhooks/${off.id}`, { enabled: false })).status).toBe(200)

          const w = yield* workspace()
          const alice = yield* userWith("annotator", [w])
          const key = alice.user.api_key
          const dataset = yield* draftDataset(w)
          yield* send("POST", datasetPath(dataset, "/fields"), { name: "text", title: "Text", settings: { type: "text" } })
          yield* send("POST", datasetPath(dataset, "/questions"), {
            name: "label",
            title: "Label",
            required: true,
            settings: { type: "label_selection", options: [{ value: "yes", text: "Yes" }, { value: "no", text: "No" }] }
          })
          expect((yield* send("PUT", datasetPath(dataset, "/publish"))).status).toBe(200)
          expect((yield* send("PATCH", datasetPath(dataset), { guidelines: "Be kind" })).status).toBe(200)
          const [one, two] = items(yield* send("POST", datasetPath(dataset, "/records/bulk"), {
            items: [{ fields: { text: "one" }, external_id: "one" }, { fields: { text: "two" }, external_id: "two" }]
          })).map((record) => record.id as string)
          expect((yield* send("PATCH", `/api/v1/records/${one}`, { metadata: { k: "v" } })).status).toBe(200)

          const yes = { status: "submitted", values: { label: { value: "yes" } } }
          const draft = { status: "draft", values: { label: { value: "no" } } }
          const answer = yield* send("POST", `/api/v1/records/${one}/responses`, yes, key)
          expect(answer.status).toBe(201)
          const responseId = body(answer).id as string
          expect((yield* send("PUT", `/api/v1/responses/${responseId}`, draft, key)).status).toBe(200)
          const bulk = (payload: Json) => send("POST", "/api/v1/me/responses/bulk", { items: [{ record_id: two, ...payload }] }, key)
          expect(JSON.stringify((yield* bulk(yes)).body)).not.toContain("\"error\":{")
          expect(JSON.stringify((yield* bulk(draft)).body)).not.toContain("\"error\":{")
          expect((yield* send("DELETE", `/api/v1/responses/${responseId}`, undefined, key)).status).toBe(200)

          // The distribution job recomputes `two` (the only record left with a response) after the PATCH commits.
          expect((yield* send("PATCH", datasetPath(dataset), { distribution: { strategy: "overlap", min_submitted: 2 } })).status)
            .toBe(200)
          yield* eventually(
            Effect.sync(() => ofType(receiver.at(all), "record.updated")),
            (updates) => updates.some((data) => data.id === two && (data.dataset as Json).distribution !== undefined &&
              ((data.dataset as { distribution: { min_submitted: number } }).distribution.min_submitted === 2)),
            "the distribution job's record.updated"
          )
          expect((yield* send("DELETE", `/api/v1/records/${one}`)).status).toBe(200)
          expect((yield* send("DELETE", datasetPath(dataset, `/records?ids=${two}`))).status).toBe(204)
          expect((yield* send("DELETE", datasetPath(dataset))).status).toBe(200)

          const deliveries = yield* eventually(
            Effect.sync(() => receiver.at(all)),
            (list) => events(list).length >= 23 && ofType(list, "dataset.deleted").length === 1,
            "all 23 events"
          )
          expect(countByType(deliveries)).toEqual(EXPECTED)
          // Every delivery verified with the library; envelope and headers as Standard Webhooks and Argilla have them.
          expect(deliveries.filter((d) => d.verifyError !== undefined).map((d) => d.verifyError)).toEqual([])
          for (const delivery of deliveries) {
            expect(delivery.messageId).toMatch(MESSAGE_ID)
            expect(delivery.headers["content-type"]).toBe("application/json")
            expect(delivery.headers["webhook-signature"]).toMatch(/^v1,/)
            expect(keys(delivery.event)).toEqual(["data", "timestamp", "type", "version"])
            expect(delivery.event?.version).toBe(1)
            expect(delivery.event?.timestamp).toMatch(ENVELOPE_TIME)
          }

          const [created] = ofType(deliveries, "dataset.created")
          expect(keys(created)).toEqual(DATASET_KEYS)
          expect(created).toMatchObject({
            id: dataset.id,
            name: dataset.name,
            status: "draft",
            guidelines: null,
            allow_extra_metadata: true,
            distribution: { strategy: "overlap", min_submitted: 1 },
            workspace: { id: w.id, name: w.name },
            fields: [],
            questions: [],
            metadata_properties: [],
            vectors_settings: []
          })
          expect(keys(created?.workspace)).toEqual(["id", "inserted_at", "name", "updated_at"])
          for (const stamp of ["inserted_at", "updated_at", "last_activity_at"]) expect(created?.[stamp]).toMatch(NAIVE)

          const [published] = ofType(deliveries, "dataset.published")
          expect(published).toMatchObject({ id: dataset.id, status: "ready" })
          const { fields, questions } = published as { fields: Array<Json>; questions: Array<Json> }
          expect(fields.map(keys)).toEqual([["id", "inserted_at", "name", "required", "settings", "title", "updated_at"]])
          expect(fields[0]).toMatchObject({ name: "text", settings: { type: "text" } })
          expect(questions.map(keys)).toEqual([
            ["description", "id", "inserted_at", "name", "required", "settings", "title", "updated_at"]
          ])
          expect(questions[0]).toMatchObject({ name: "label", required: true, settings: { type: "label_selection" } })
          expect(ofType(deliveries, "dataset.updated").map((data) => data.guidelines)).toEqual(["Be kind", "Be kind"])

          const recordsCreated = ofType(deliveries, "record.created")
          expect(recordsCreated.map(keys)).toEqual([RECORD_KEYS, RECORD_KEYS])
          expect(recordsCreated.map((data) => data.fields).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))))
            .toEqual([{ text: "one" }, { text: "two" }])
          expect(recordsCreated[0]).toMatchObject({ status: "pending", metadata: null, dataset: { id: dataset.id, status: "ready" } })
          expect(ofType(deliveries, "record.updated").some((data) => data.id === one && (data.metadata as Json | null)?.k === "v"))
            .toBe(true)
          expect(ofType(deliveries, "record.completed").map((data) => data.id).sort()).toEqual([one, two].sort())
          expect(ofType(deliveries, "record.completed").every((data) => data.status === "completed")).toBe(true)

          const responses = ofType(deliveries, "response.created")
          expect(responses.map(keys)).toEqual([RESPONSE_KEYS, RESPONSE_KEYS])
          const first = responses.find((data) => data.id === responseId)
          expect(first).toMatchObject({
            status: "submitted",
            values: { label: { value: "yes" } },
            record: { id: one, status: "completed", dataset: { id: dataset.id } },
            user: { id: alice.user.id, username: alice.user.username, role: "annotator", first_name: "annotator" }
          })
          expect(keys(first?.user)).toEqual(["first_name", "id", "inserted_at", "last_name", "role", "updated_at", "username"])
          // No event carries a credential: no API key (the author's, the owner's), no bcrypt password hash.
          const everything = JSON.stringify(deliveries.map((delivery) => delivery.event))
          for (const secret of [key, OWNER.apiKey, "api_key", "password"]) expect(everything).not.toContain(secret)
          expect(everything).not.toMatch(/\$2[aby]\$\d\d\$/)
          expect(keys(first?.record)).toEqual(RECORD_KEYS)
          expect(ofType(deliveries, "response.updated").map((data) => data.status)).toEqual(["draft", "draft"])
          expect(ofType(deliveries, "response.deleted")).toEqual([
            expect.objectContaining({ id: responseId, status: "draft", record: expect.objectContaining({ id: one, status: "pending" }) })
          ])
          expect(ofType(deliveries, "record.deleted").map((data) => data.id).sort()).toEqual([one, two].sort())
          expect(ofType(deliveries, "dataset.deleted")).toEqual([expect.objectContaining({ id: dataset.id, status: "ready" })])

          // The webhook that wants only dataset.created got that; the disabled one got nothing.
          expect(receiver.at(onlyCreated).filter((d) => d.verifyError === undefined).map((d) => d.event?.type)).toEqual(["dataset.created"])
          expect(receiver.at(disabled)).toEqual([])
        }), 120_000)

      it.effect("events no enabled webhook wants are not even written (no outbox rows, no jobs)", () =>
        Effect.gen(function*() {
          const receiver = yield* TheReceiver
          yield* removeAllHooks
          // Wanted by a disabled webhook only, or by an enabled one that wants other events.
          const off = yield* hook(receiver, unique("off"), ALL_EVENTS)
          yield* send("PATCH", `/api/v1/webhooks/${off.id}`, { enabled: false })
          yield* hook(receiver, unique("other"), ["dataset.deleted"])
          const sql = yield* SqlClient.SqlClient
          const count = Effect.map(
            Effect.orDie(sql<{ readonly n: number | string }>`select count(*) as n from outbox`),
            (rows) => Number(rows[0]?.n ?? 0)
          )
          const before = yield* count
          const dataset = yield* publishedDataset()
          yield* send("POST", datasetPath(dataset, "/records/bulk"), { items: [{ fields: { text: "a" } }, { fields: { text: "b" } }] })
          yield* send("PATCH", datasetPath(dataset), { distribution: { strategy: "overlap", min_submitted: 3 } })
          // The distribution change leaves one row: the job that recomputes statuses, enqueued after the commit.
          expect((yield* count) - before).toBe(1)
          yield* removeAllHooks
        }), 120_000)
    })
  })
}

import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Dataset } from "../../src/domain/Dataset.js"
import { dialects } from "../support/databases.js"
import { datasetPath, draftDataset, send } from "../support/datasets.js"
import { userWith, workspace } from "../support/fixtures.js"
import { OWNER, TestServerLive } from "../support/server.js"

type Json = Record<string, unknown>
const body = (response: { readonly body: unknown }) => response.body as Json
const items = (response: { readonly body: unknown }) => (response.body as { items: Array<Json> }).items

/** A published dataset with a required label question and an optional comment; `minSubmitted` per record. */
const annotated = (minSubmitted = 1) =>
  Effect.gen(function*() {
    const w = yield* workspace()
    const dataset = yield* draftDataset(w)
    const post = (kind: string, payload: unknown) => send("POST", datasetPath(dataset, `/${kind}`), payload)
    yield* post("fields", { name: "text", title: "Text", settings: { type: "text" } })
    yield* post("questions", {
      name: "label",
      title: "Label",
      required: true,
      settings: { type: "label_selection", options: [{ value: "yes", text: "Yes" }, { value: "no", text: "No" }] }
    })
    const ranking = yield* post("questions", {
      name: "rank",
      title: "Rank",
      settings: { type: "ranking", options: [{ value: "a", text: "A" }, { value: "b", text: "B" }] }
    })
    yield* send("PATCH", datasetPath(dataset), { distribution: { strategy: "overlap", min_submitted: minSubmitted } })
    yield* send("PUT", datasetPath(dataset, "/publish"))
    const records = items(yield* send("POST", datasetPath(dataset, "/records/bulk"), {
      items: [{ fields: { text: "one" } }, { fields: { text: "two" } }, { fields: { text: "three" } }]
    }))
    const [alice, bob] = [yield* userWith("annotator", [w]), yield* userWith("annotator", [w])]
    return { w, dataset, records, alice, bob, rankingId: body(ranking).id as string }
  })

const answer = (recordId: unknown, key: string, payload: unknown) =>
  send("POST", `/api/v1/records/${recordId}/responses`, payload, key)
const yes = { status: "submitted", values: { label: { value: "yes" } } }
const statusOf = (dataset: Dataset, index: number) =>
  Effect.map(send("GET", datasetPath(dataset, "/records")), (list) => items(list)[index]?.status)
/** Reads `read` until it gives `expected` (every 20 ms, for at most 30 s), then returns what it last read. */
const settled = <A, E, R>(read: Effect.Effect<A, E, R>, expected: A) =>
  Effect.gen(function*() {
    const deadline = Date.now() + 30_000
    let value = yield* read
    while (value !== expected && Date.now() < deadline) {
      yield* Effect.sleep("20 millis")
      value = yield* read
    }
    return value
  })

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 60_000 })("responses", (it) => {
      it.effect("a member answers a record (201, owned by the caller); a second answer by the same user is 409", () =>
        Effect.gen(function*() {
          const { alice, records } = yield* annotated()
          const created = yield* answer(records[0]?.id, alice.user.api_key, yes)
          expect(created.status).toBe(201)
          expect(body(created)).toMatchObject({ status: "submitted", values: { label: { value: "yes" } }, user_id: alice.user.id, record_id: records[0]?.id })
          const again = yield* answer(records[0]?.id, alice.user.api_key, yes)
          expect(again.status).toBe(409)
          expect(again.body).toEqual({
            detail: `Response already exists for record with id \`${records[0]?.id}\` and by user with id \`${alice.user.id}\``
          })
          const outsider = yield* userWith("annotator")
          expect((yield* answer(records[0]?.id, outsider.user.api_key, yes)).status).toBe(403)
        }))

      it.effect("answers are checked against the questions: shapes, required questions, unknown names", () =>
        Effect.gen(function*() {
          const { alice, records } = yield* annotated()
          const key = alice.user.api_key
          const cases: ReadonlyArray<[unknown, number, RegExp?]> = [
            [{ status: "submitted", values: { label: { value: "maybe" } } }, 422, /maybe/],
            [{ status: "submitted", values: { rank: { value: [{ value: "a", rank: 1 }, { value: "b", rank: 2 }] } } }, 422, /label/],
            [{ status: "submitted", values: { label: { value: "yes" }, nope: { value: 1 } } }, 422, /found response value for non configured question with name='nope'/],
            [{ status: "submitted" }, 422],
            [{ status: "archived", values: {} }, 422],
            [{ status: "draft", values: { rank: { value: [{ value: "a", rank: 1 }] } } }, 201],
            [{ status: "discarded" }, 201],
            [{ status: "submitted", values: { label: { value: "no" }, rank: { value: [{ value: "a", rank: 1 }, { value: "b", rank: 1 }] } } }, 201]
          ]
          for (const [index, [payload, status, message]] of cases.entries()) {
            const record = records[index < 5 ? 0 : index - 5]
            const response = yield* answer(record?.id, key, payload)
            expect({ payload, status: response.status }).toEqual({ payload, status })
            if (message !== undefined) expect(JSON.stringify(response.body)).toMatch(message)
          }
        }))

      it.effect("record status follows submitted responses against min_submitted, including distribution changes", () =>
        Effect.gen(function*() {
          const { alice, bob, dataset, records } = yield* annotated(2)
          const first = yield* answer(records[0]?.id, alice.user.api_key, yes)
          expect(yield* statusOf(dataset, 0)).toBe("pending")
          const second = yield* answer(records[0]?.id, bob.user.api_key, yes)
          expect(yield* statusOf(dataset, 0)).toBe("completed")
          // Bob changes his mind to a draft: the record is pending again.
          const drafted = yield* send("PUT", `/api/v1/responses/${body(second).id}`, { status: "draft", values: { label: { value: "no" } } }, bob.user.api_key)
          expect(drafted.status).toBe(200)
          expect(yield* statusOf(dataset, 0)).toBe("pending")
          yield* send("PATCH", datasetPath(dataset), { distribution: { strategy: "overlap", min_submitted: 1 } })
          // A background job recomputes the statuses after a distribution change: wait for it to run.
          expect(yield* settled(statusOf(dataset, 0), "completed")).toBe("completed")
          const removed = yield* send("DELETE", `/api/v1/responses/${body(first).id}`, undefined, alice.user.api_key)
          expect(removed.status).toBe(200)
          expect(body(removed).id).toBe(body(first).id)
          expect(yield* statusOf(dataset, 0)).toBe("pending")
        }))

      it.effect("only the author, an owner or a member admin may change a response", () =>
        Effect.gen(function*() {
          const { alice, bob, records, w } = yield* annotated()
          const response = yield* answer(records[1]?.id, alice.user.api_key, yes)
          const path = `/api/v1/responses/${body(response).id}`
          expect((yield* send("PUT", path, yes, bob.user.api_key)).status).toBe(403)
          expect((yield* send("DELETE", path, undefined, bob.user.api_key)).status).toBe(403)
          const admin = yield* userWith("admin", [w])
          expect((yield* send("PUT", path, { status: "discarded" }, admin.user.api_key)).status).toBe(200)
          const outsiderAdmin = yield* userWith("admin")
          expect((yield* send("PUT", path, { status: "discarded" }, outsiderAdmin.user.api_key)).status).toBe(403)
          expect((yield* send("PUT", path, yes, OWNER.apiKey)).status).toBe(200)
          expect((yield* send("PUT", `/api/v1/responses/${crypto.randomUUID()}`, yes)).status).toBe(404)
        }))

      it.effect("POST /me/responses/bulk upserts the caller's responses; each item succeeds or fails alone, in order", () =>
        Effect.gen(function*() {
          const { alice, records } = yield* annotated()
          const other = yield* annotated()
          const missing = crypto.randomUUID()
          const result = yield* send("POST", "/api/v1/me/responses/bulk", {
            items: [
              { record_id: records[0]?.id, ...yes },
              { record_id: missing, ...yes },
              { record_id: other.records[0]?.id, ...yes },
              { record_id: records[1]?.id, status: "submitted", values: { label: { value: "maybe" } } }
            ]
          }, alice.user.api_key)
          expect(result.status).toBe(200)
          const outcome = items(result)
          expect(outcome[0]).toMatchObject({ item: { status: "submitted" }, error: null })
          expect(outcome[1]).toEqual({ item: null, error: { detail: `Record with id \`${missing}\` not found` } })
          expect(outcome[2]).toEqual({ item: null, error: { detail: "argilla.api.errors::ForbiddenOperationError(detail=Operation not allowed)" } })
          expect(outcome[3]).toMatchObject({ item: null, error: { detail: expect.stringContaining("maybe") } })
          // A second bulk updates the first one's response in place.
          const again = yield* send("POST", "/api/v1/me/responses/bulk", {
            items: [{ record_id: records[0]?.id, status: "draft", values: { label: { value: "no" } } }]
          }, alice.user.api_key)
          expect(items(again)[0]).toMatchObject({ item: { status: "draft", id: (outcome[0]?.item as Json).id }, error: null })
          // One record twice in a bulk would apply both answers: refused as a whole (hardening-records.test.ts).
          expect((yield* send("POST", "/api/v1/me/responses/bulk", { items: [] }, alice.user.api_key)).status).toBe(422)
        }))

      it.effect("suggestions: PUT creates (201) then replaces (200); list; delete one or by ids; who may", () =>
        Effect.gen(function*() {
          const { alice, dataset, rankingId, records } = yield* annotated()
          const path = `/api/v1/records/${records[0]?.id}/suggestions`
          const created = yield* send("PUT", path, { question_id: rankingId, value: [{ value: "a", rank: 1 }], score: [0.5], agent: "gpt:4o", type: "model" })
          expect(created.status).toBe(201)
          const replaced = yield* send("PUT", path, { question_id: rankingId, value: [{ value: "b", rank: 1 }], score: null })
          expect(replaced.status).toBe(200)
          expect(body(replaced)).toMatchObject({ id: body(created).id, value: [{ value: "b", rank: 1 }], score: null, agent: null })
          expect((yield* send("PUT", path, { question_id: rankingId, value: [{ value: "a", rank: 1 }], score: 0.3 })).status).toBe(422)
          expect((yield* send("PUT", path, { question_id: crypto.randomUUID(), value: "yes" })).status).toBe(422)
          expect((yield* send("PUT", path, { question_name: "label", value: "yes", agent: "!!" })).status).toBe(422)
          const labelled = yield* send("PUT", path, { question_name: "label", value: "yes", score: 1 })
          expect(labelled.status).toBe(201)
          expect(items(yield* send("GET", path, undefined, alice.user.api_key)).length).toBe(2)
          expect((yield* send("PUT", path, { question_name: "label", value: "no" }, alice.user.api_key)).status).toBe(403)
          expect((yield* send("DELETE", `${path}?ids=nope`)).body).toEqual({ detail: "Invalid UUID format" })
          expect((yield* send("DELETE", `${path}?ids=${body(created).id}`)).status).toBe(204)
          const single = yield* send("DELETE", `/api/v1/suggestions/${body(labelled).id}`)
          expect(body(single).id).toBe(body(labelled).id)
          expect(items(yield* send("GET", path))).toEqual([])
          void dataset
        }))

      it.effect("progress: records by status, annotators by record and response status, and my own metrics", () =>
        Effect.gen(function*() {
          const { alice, bob, dataset, records } = yield* annotated()
          yield* answer(records[0]?.id, alice.user.api_key, yes)
          yield* answer(records[1]?.id, alice.user.api_key, { status: "draft", values: { label: { value: "no" } } })
          yield* answer(records[0]?.id, bob.user.api_key, { status: "discarded" })
          const progress = yield* send("GET", datasetPath(dataset, "/progress"), undefined, alice.user.api_key)
          expect(body(progress)).toMatchObject({ total: 3, completed: 1, pending: 2 })
          const users = yield* send("GET", datasetPath(dataset, "/users/progress"))
          expect((body(users).users as Array<Json>).find((u) => u.username === alice.user.username)).toEqual({
            username: alice.user.username,
            completed: { submitted: 1, discarded: 0, draft: 0 },
            pending: { submitted: 0, discarded: 0, draft: 1 }
          })
          expect((body(users).users as Array<Json>).find((u) => u.username === bob.user.username)).toEqual({
            username: bob.user.username,
            completed: { submitted: 0, discarded: 1, draft: 0 },
            pending: { submitted: 0, discarded: 0, draft: 0 }
          })
          const mine = yield* send("GET", `/api/v1/me/datasets/${dataset.id}/metrics`, undefined, alice.user.api_key)
          expect(body(mine)).toEqual({ responses: { total: 3, submitted: 1, discarded: 0, draft: 1, pending: 1 } })
          const outsider = yield* userWith("annotator")
          expect((yield* send("GET", datasetPath(dataset, "/progress"), undefined, outsider.user.api_key)).status).toBe(403)
          const draft = yield* draftDataset()
          expect(body(yield* send("GET", datasetPath(draft, "/progress")))).toEqual({ total: 0, completed: 0, pending: 0, users: [] })
        }))
    })
  })
}

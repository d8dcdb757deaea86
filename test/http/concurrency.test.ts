import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { dialects } from "../support/databases.js"
import { datasetPath, draftDataset, send } from "../support/datasets.js"
import { userWith, workspace } from "../support/fixtures.js"
import { TestServerLive } from "../support/server.js"

type Json = Record<string, unknown>
const ANNOTATORS = 16
const RECORDS = 12

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 120_000 })("concurrent annotators", (it) => {
      it.effect(`${ANNOTATORS} annotators answering the same records at once lose nothing and leave the right statuses`, () =>
        Effect.gen(function*() {
          const w = yield* workspace()
          const dataset = yield* draftDataset(w)
          const post = (kind: string, payload: unknown) => send("POST", datasetPath(dataset, `/${kind}`), payload)
          yield* post("fields", { name: "text", title: "Text", settings: { type: "text" } })
          yield* post("questions", {
            name: "label",
            title: "Label",
            required: true,
            settings: { type: "label_selection", options: [{ value: "a", text: "A" }, { value: "b", text: "B" }] }
          })
          // Every annotator must be counted for a record to complete: a status computed from a stale count shows.
          yield* send("PATCH", datasetPath(dataset), { distribution: { strategy: "overlap", min_submitted: ANNOTATORS } })
          yield* send("PUT", datasetPath(dataset, "/publish"))
          const created = yield* send("POST", datasetPath(dataset, "/records/bulk"), {
            items: Array.from({ length: RECORDS }, (_, i) => ({ fields: { text: `record ${i}` } }))
          })
          const records = (created.body as { items: Array<Json> }).items.map((r) => r.id as string)
          const annotators = yield* Effect.all(Array.from({ length: ANNOTATORS }, () => userWith("annotator", [w])))

          // The last record is left one submission short: 15 submit, 1 keeps a draft.
          const answers = annotators.flatMap((annotator, a) =>
            records.map((recordId, r) => {
              const submitted = !(r === RECORDS - 1 && a === 0)
              const payload = { status: submitted ? "submitted" : "draft", values: { label: { value: a % 2 === 0 ? "a" : "b" } } }
              // Half go one by one, half through the bulk endpoint: both paths race each other.
              return a % 2 === 0
                ? send("POST", `/api/v1/records/${recordId}/responses`, payload, annotator.user.api_key)
                : send("POST", "/api/v1/me/responses/bulk", { items: [{ record_id: recordId, ...payload }] }, annotator.user.api_key)
            })
          )
          const outcomes = yield* Effect.all(answers, { concurrency: "unbounded" })
          expect(outcomes.filter((o) => o.status !== 201 && o.status !== 200)).toEqual([])
          expect(outcomes.filter((o) => o.status === 200 && JSON.stringify(o.body).includes("\"error\":{"))).toEqual([])

          const listed = yield* send("GET", datasetPath(dataset, `/records?limit=100&include=responses`))
          const stored = (listed.body as { items: Array<{ id: string; status: string; responses: Array<Json> }> }).items
          expect(stored.map((r) => r.responses.length)).toEqual(records.map(() => ANNOTATORS))
          expect(stored.map((r) => r.status)).toEqual(records.map((_, r) => (r === RECORDS - 1 ? "pending" : "completed")))
          const progress = yield* send("GET", datasetPath(dataset, "/progress"))
          expect(progress.body).toMatchObject({ total: RECORDS, completed: RECORDS - 1, pending: 1 })
        }))
    })
  })
}

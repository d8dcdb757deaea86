/**
 * The caller's Pending queue and the caller's metrics, with task distribution. The queue (a search for no response
 * of mine on a pending record) leaves out records others completed under `min_submitted`; the metrics' `pending`
 * is Argilla's "records less my responses" and counts them. The web UI counts its Pending tab with the search, so
 * this pins both definitions and the gap between them, on both databases.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { dialects } from "../support/databases.js"
import { datasetPath, draftDataset, send } from "../support/datasets.js"
import { userWith, workspace } from "../support/fixtures.js"
import { TestServerLive } from "../support/server.js"

type Json = Record<string, unknown>
const items = (response: { readonly body: unknown }) => (response.body as { items: Array<Json> }).items

const yes = { status: "submitted", values: { label: { value: "yes" } } }
const answer = (recordId: unknown, key: string, payload: unknown = yes) =>
  send("POST", `/api/v1/records/${recordId}/responses`, payload, key)

/** The body the web UI's Pending queue sends: no response of mine, on a pending record. */
const PENDING_QUEUE = {
  filters: {
    and: [
      { type: "terms", scope: { entity: "response", property: "status" }, values: ["pending"] },
      { type: "terms", scope: { entity: "record", property: "status" }, values: ["pending"] }
    ]
  }
}

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 60_000 })("pending queue", (it) => {
      it.effect("with min_submitted 2 the queue leaves out records others completed; the metrics count them", () =>
        Effect.gen(function*() {
          const w = yield* workspace()
          const dataset = yield* draftDataset(w)
          yield* send("POST", datasetPath(dataset, "/fields"), { name: "text", title: "Text", settings: { type: "text" } })
          yield* send("POST", datasetPath(dataset, "/questions"), {
            name: "label",
            title: "Label",
            required: true,
            settings: { type: "label_selection", options: [{ value: "yes", text: "Yes" }, { value: "no", text: "No" }] }
          })
          yield* send("PATCH", datasetPath(dataset), { distribution: { strategy: "overlap", min_submitted: 2 } })
          yield* send("PUT", datasetPath(dataset, "/publish"))
          const records = items(yield* send("POST", datasetPath(dataset, "/records/bulk"), {
            items: Array.from({ length: 8 }, (_, i) => ({ external_id: `r${i}`, fields: { text: `record ${i}` } }))
          }))
          const [me, other1, other2] = [
            yield* userWith("annotator", [w]),
            yield* userWith("annotator", [w]),
            yield* userWith("annotator", [w])
          ]
          // Records 0 and 1: completed by the other two. Record 2: one other answer, still pending.
          // Records 3 and 4: mine (submitted, discarded). Records 2, 5, 6, 7 wait for me.
          for (const i of [0, 1]) {
            yield* answer(records[i]?.id, other1.user.api_key)
            yield* answer(records[i]?.id, other2.user.api_key)
          }
          yield* answer(records[2]?.id, other1.user.api_key)
          yield* answer(records[3]?.id, me.user.api_key)
          yield* answer(records[4]?.id, me.user.api_key, { status: "discarded" })

          const queue = Effect.map(
            send("POST", `/api/v1/me/datasets/${dataset.id}/records/search?limit=50`, PENDING_QUEUE, me.user.api_key),
            (response) => response.body as { total: number; items: Array<{ record: Json }> }
          )
          const metrics = Effect.map(
            send("GET", `/api/v1/me/datasets/${dataset.id}/metrics`, undefined, me.user.api_key),
            (response) => (response.body as { responses: { pending: number } }).responses
          )
          const before = yield* queue
          expect(before.total).toBe(4)
          expect(before.items.map((item) => item.record.external_id).sort()).toEqual(["r2", "r5", "r6", "r7"])
          expect(yield* metrics).toEqual({ total: 8, submitted: 1, discarded: 1, draft: 0, pending: 6 })

          // I submit record 2 (now completed too): one fewer in the queue, and in the metrics' pending.
          yield* answer(records[2]?.id, me.user.api_key)
          const after = yield* queue
          expect(after.total).toBe(3)
          expect(after.items.map((item) => item.record.external_id).sort()).toEqual(["r5", "r6", "r7"])
          const counted = yield* metrics
          expect(counted.pending).toBe(5)
          // The gap is exactly the records others completed that I never answered.
          expect(counted.pending - after.total).toBe(2)
        }))
    })
  })
}

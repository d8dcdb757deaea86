import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DatasetId, RecordId } from "../../src/domain/Ids.js"
import { datasetPath, draftDataset, send } from "../support/datasets.js"
import { userWith, workspace } from "../support/fixtures.js"
import { ownerClient, TestServerLive } from "../support/server.js"

describe("sqlite", () => {
  layer(TestServerLive("sqlite"), { excludeTestServices: true, timeout: 120_000 })("assignment smoke", (it) => {
    it.effect("assign, queue, lease", () =>
      Effect.gen(function*() {
        const w = yield* workspace()
        const ds = yield* draftDataset(w)
        yield* send("POST", datasetPath(ds, "/fields"), { name: "text", title: "Text", settings: { type: "text" } })
        yield* send("POST", datasetPath(ds, "/questions"), {
          name: "label", title: "Label", required: true,
          settings: { type: "label_selection", options: [{ value: "a", text: "A" }, { value: "b", text: "B" }] }
        })
        yield* send("PUT", datasetPath(ds, "/publish"))
        const items = Array.from({ length: 10 }, (_, i) => ({ external_id: `r${i}`, fields: { text: `t${i}` } }))
        expect((yield* send("POST", datasetPath(ds, "/records/bulk"), { items })).status).toBe(201)
        const alice = yield* userWith("annotator", [w])
        const bob = yield* userWith("annotator", [w])
        const owner = yield* ownerClient
        const id = DatasetId.make(ds.id)
        const listed = yield* owner.records.list({ path: { id }, urlParams: { limit: 100 } })
        const ids = listed.items.map((r) => RecordId.make(r.id))
        const res = yield* owner.assignment.assign({ path: { id }, payload: { users: [alice.user.id], record_ids: ids.slice(0, 3) } })
        expect(res).toEqual({ records: 3, assigned: 3 })
        const q = yield* alice.client.assignment.queue({ path: { id }, urlParams: { limit: 5 }, payload: {} })
        expect(q.total).toBe(10)
        expect(q.items.map((i) => i.reason)).toEqual(["assigned", "assigned", "assigned", "pool", "pool"])
        const qb = yield* bob.client.assignment.queue({ path: { id }, urlParams: { limit: 50 }, payload: {} })
        // Bob: 7 pool records less the 2 alice holds.
        expect(qb.total).toBe(5)
        const summary = yield* owner.assignment.summary({ path: { id } })
        console.log(JSON.stringify(summary.users))
        yield* owner.assignment.updateSettings({ path: { id }, payload: { blind: true } })
      }))
  })
})

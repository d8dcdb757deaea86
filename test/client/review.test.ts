/**
 * `client.review`, both faces: an owner names a reviewer by workspace name; the reviewer reads the queue with the
 * request's defaults filled in, settles a record, accepts the agreed answers and reads the agreement.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Client, GlossClient } from "../../src/client/index.js"
import { datasetPath, send } from "../support/datasets.js"
import { unique } from "../support/fixtures.js"
import { OWNER, TestServer, TestServerLive } from "../support/server.js"
import { ownerGloss } from "./support.js"

layer(TestServerLive("sqlite"), { excludeTestServices: true, timeout: 60_000 })("review client", (it) => {
  it.scoped("a reviewer named by workspace name reviews: queue, settle, accept agreed, agreement", () =>
    Effect.gen(function*() {
      const { url } = yield* TestServer
      const owner = yield* ownerGloss()
      const workspace = yield* owner.workspaces.add({ name: unique("review") })
      const dataset = yield* owner.call(owner.api.datasets.create({ payload: { name: unique("ds"), workspace_id: workspace.id } }))
      yield* send("POST", datasetPath(dataset, "/fields"), { name: "text", title: "Text", settings: { type: "text" } })
      yield* send("POST", datasetPath(dataset, "/questions"), {
        name: "label",
        title: "Label",
        required: true,
        settings: { type: "label_selection", options: [{ value: "a", text: "A" }, { value: "b", text: "B" }] }
      })
      yield* send("PUT", datasetPath(dataset, "/publish"))
      const people = yield* Effect.forEach(["ann", "bo", "rev"], (name) =>
        owner.users.add({ username: unique(name), password: "password-1234", role: "annotator" }))
      for (const person of people) yield* owner.call(owner.api.workspaces.addUser({ path: { id: workspace.id }, payload: { user_id: person.id } }))
      const [ann, bo, rev] = people
      const answered = (a: string, b: string) => [
        { user_id: ann!.id, status: "submitted", values: { label: { value: a } } },
        { user_id: bo!.id, status: "submitted", values: { label: { value: b } } }
      ]
      yield* send("POST", datasetPath(dataset, "/records/bulk"), {
        items: [{ fields: { text: "one" }, responses: answered("a", "b") }, { fields: { text: "two" }, responses: answered("b", "b") }]
      })

      const named = yield* owner.review.reviewers.add(workspace.name, rev!)
      expect(named.username).toBe(rev!.username)
      expect((yield* owner.review.reviewers.list(workspace.name)).map((r) => r.user_id)).toEqual([rev!.id])
      // The reviewer's own client (the owner sees new users' keys).
      const reviewer = yield* GlossClient.make({ apiUrl: url, apiKey: String(rev!.api_key) })
      expect(yield* reviewer.review.mine()).toEqual({ all: false, workspace_ids: [workspace.id] })
      const page = yield* reviewer.review.queue(dataset)
      expect(page.counts).toEqual({ all: 2, disagreement: 1, unsettled: 2, settled: 0 })
      const first = page.items[0]!
      expect(first.disagreements).toEqual(["label"])
      const settled = yield* reviewer.review.settle(first.record, [
        { question: "label", value: "b", source: "response", source_user_id: bo!.id }
      ])
      expect(settled.map((f) => [f.value, f.settled_by])).toEqual([["b", rev!.id]])
      expect(yield* reviewer.review.acceptAgreed(dataset)).toEqual({ settled: 1, records: 1 })
      expect((yield* reviewer.review.queue(dataset, { queue: "settled" })).total).toBe(2)
      const report = yield* reviewer.review.agreement(dataset, { questions: ["label"] })
      expect(report.questions[0]?.records_disagreeing).toBe(1)
      expect(yield* reviewer.review.unsettle(first.record, "label")).toEqual([])
      yield* owner.review.reviewers.remove(workspace.name, rev!)
      expect(yield* owner.review.reviewers.list(workspace.name)).toEqual([])
    }))

  it.effect("the Promise face: where the owner may review", () =>
    Effect.gen(function*() {
      const { url } = yield* TestServer
      const client = new Client({ apiUrl: url, apiKey: OWNER.apiKey })
      const mine = yield* Effect.promise(() => client.review.mine())
      expect(mine).toEqual({ all: true, workspace_ids: [] })
    }))
})

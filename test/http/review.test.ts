/**
 * Review (`/api/gloss`, a Gloss extension): reviewer rights (granted, taken back, gone with the membership), final
 * answers (checked as responses are, cascaded with their record), the review queues, accepting agreed answers, and
 * the agreement report on a small dataset whose figures are known; through the typed client on both databases.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DatasetId, RecordId, UserId, WorkspaceId } from "../../src/domain/Ids.js"
import { dialects } from "../support/databases.js"
import { datasetPath, draftDataset, send } from "../support/datasets.js"
import { expectFailure } from "../support/expect.js"
import { userWith, workspace } from "../support/fixtures.js"
import { ownerClient, TestServerLive } from "../support/server.js"
import { inSample } from "../../src/services/review/sample.js"

type Json = Record<string, any>

/**
 * Each test seeds a dataset with five users and records, then makes a few dozen calls: about a second and a half
 * alone, but a full run's other files share the two cores and made one take over 30 s.
 */
const TEST_TIMEOUT = 120_000

const LABELS = ["a", "b", "c"]

/**
 * A published dataset: a text field, a required label question `label` (a, b, c), an optional rating `rating`
 * (1 to 5), an optional multi-label `topics` and a text `note`; three annotators (alice, bob, carol) and a reviewer
 * candidate (rita), all members; records made by `answers`, one list of submitted label answers per record.
 */
const seeded = (labels: ReadonlyArray<ReadonlyArray<string | null>>, extra: (i: number) => Json = () => ({})) =>
  Effect.gen(function*() {
    const w = yield* workspace()
    const ds = yield* draftDataset(w)
    const post = (kind: string, payload: unknown) => send("POST", datasetPath(ds, `/${kind}`), payload)
    yield* post("fields", { name: "text", title: "Text", settings: { type: "text" } })
    yield* post("questions", {
      name: "label",
      title: "Label",
      required: true,
      settings: { type: "label_selection", options: LABELS.map((value) => ({ value, text: value.toUpperCase() })) }
    })
    yield* post("questions", {
      name: "rating",
      title: "Rating",
      required: false,
      settings: { type: "rating", options: [1, 2, 3, 4, 5].map((value) => ({ value })) }
    })
    yield* post("questions", {
      name: "topics",
      title: "Topics",
      required: false,
      settings: { type: "multi_label_selection", options: LABELS.map((value) => ({ value, text: value })) }
    })
    yield* post("questions", { name: "note", title: "Note", required: false, settings: { type: "text" } })
    yield* send("PUT", datasetPath(ds, "/publish"))
    const alice = yield* userWith("annotator", [w])
    const bob = yield* userWith("annotator", [w])
    const carol = yield* userWith("annotator", [w])
    const rita = yield* userWith("annotator", [w])
    const admin = yield* userWith("admin", [w])
    const annotators = [alice, bob, carol]
    const items = labels.map((answers, i) => ({
      external_id: `r${i}`,
      fields: { text: `record ${i}` },
      responses: answers.flatMap((label, j) =>
        label === null ? [] : [{
          user_id: annotators[j]!.user.id,
          status: "submitted",
          values: { label: { value: label }, ...(extra(i)[j] ?? {}) }
        }]
      )
    }))
    const created = yield* send("POST", datasetPath(ds, "/records/bulk"), { items })
    expect(created.status).toBe(201)
    const owner = yield* ownerClient
    const listed = yield* owner.records.list({ path: { id: ds.id }, urlParams: { limit: 1000 } })
    const byExternal = new Map(listed.items.map((r) => [r.external_id, r.id]))
    const recordIds = labels.map((_, i) => byExternal.get(`r${i}`)!)
    return { w, ds, alice, bob, carol, rita, admin, recordIds, datasetId: DatasetId.make(ds.id) }
  })

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 120_000 })("review", (it) => {
      it.effect("an annotator without review rights gets 403 everywhere; a named reviewer may review, until taken back", () =>
        Effect.gen(function*() {
          const { alice, datasetId, recordIds, rita, w } = yield* seeded([["a", "a"], ["a", "b"]])
          const record = RecordId.make(recordIds[0]!)
          yield* expectFailure(rita.client.review.finalAnswers({ path: { id: record } }), "Forbidden")
          yield* expectFailure(rita.client.review.agreement({ path: { id: datasetId }, payload: {} }), "Forbidden")
          expect(yield* rita.client.review.mine()).toEqual({ all: false, workspace_ids: [] })
          // Annotators cannot name reviewers, not even themselves.
          yield* expectFailure(
            rita.client.review.addReviewer({ path: { id: w.id }, payload: { user_id: rita.user.id } }),
            "Forbidden"
          )
          const owner = yield* ownerClient
          const granted = yield* owner.review.addReviewer({ path: { id: w.id }, payload: { user_id: rita.user.id } })
          expect(granted).toMatchObject({ workspace_id: w.id, user_id: rita.user.id, username: rita.user.username })
          // Again: the same grant.
          const again = yield* owner.review.addReviewer({ path: { id: w.id }, payload: { user_id: rita.user.id } })
          expect(again.inserted_at).toEqual(granted.inserted_at)
          expect((yield* owner.review.reviewers({ path: { id: w.id } })).items.map((r) => r.user_id)).toEqual([rita.user.id])
          expect(yield* rita.client.review.mine()).toEqual({ all: false, workspace_ids: [w.id] })
          expect(yield* rita.client.review.finalAnswers({ path: { id: record } })).toEqual({ items: [] })
          // Still an annotator for Argilla's endpoints: no one else's responses there.
          yield* expectFailure(rita.client.records.list({ path: { id: datasetId }, urlParams: {} }), "Forbidden")
          // What Argilla's SDK reads: `GET /api/v1/me` and `GET /api/v1/users`.
          const me = yield* send("GET", "/api/v1/me", undefined, rita.user.api_key)
          expect((me.body as Json).role).toBe("annotator")
          const users = yield* send("GET", "/api/v1/users")
          expect(((users.body as Json).items as Array<Json>).find((u) => u.id === rita.user.id)?.role).toBe("annotator")
          // A reviewer cannot name reviewers either.
          yield* expectFailure(
            rita.client.review.addReviewer({ path: { id: w.id }, payload: { user_id: alice.user.id } }),
            "Forbidden"
          )
          const removed = yield* owner.review.removeReviewer({ path: { id: w.id, user_id: rita.user.id } })
          expect(removed.user_id).toBe(rita.user.id)
          yield* expectFailure(rita.client.review.finalAnswers({ path: { id: record } }), "Forbidden")
          yield* expectFailure(owner.review.removeReviewer({ path: { id: w.id, user_id: rita.user.id } }), "NotFound")
        }), TEST_TIMEOUT)

      it.effect("review rights need membership, and go when the member leaves the workspace", () =>
        Effect.gen(function*() {
          const { admin, rita, w } = yield* seeded([["a"]])
          const outsider = yield* userWith("annotator")
          // An admin of the workspace names reviewers there.
          yield* expectFailure(
            admin.client.review.addReviewer({ path: { id: w.id }, payload: { user_id: outsider.user.id } }),
            "Unprocessable",
            /is not a member of workspace/
          )
          yield* admin.client.review.addReviewer({ path: { id: w.id }, payload: { user_id: rita.user.id } })
          const owner = yield* ownerClient
          yield* owner.workspaces.removeUser({ path: { id: w.id, user_id: rita.user.id } })
          expect((yield* admin.client.review.reviewers({ path: { id: w.id } })).items).toEqual([])
          expect(yield* rita.client.review.mine()).toEqual({ all: false, workspace_ids: [] })
          // An admin of another workspace may not.
          const elsewhere = yield* userWith("admin", [yield* workspace()])
          yield* expectFailure(elsewhere.client.review.reviewers({ path: { id: w.id } }), "Forbidden")
          yield* expectFailure(
            owner.review.reviewers({ path: { id: WorkspaceId.make("00000000-0000-4000-8000-000000000000") } }),
            "NotFound"
          )
          expect(yield* owner.review.mine()).toEqual({ all: true, workspace_ids: [] })
          expect(yield* admin.client.review.mine()).toEqual({ all: false, workspace_ids: [w.id] })
        }), TEST_TIMEOUT)

      it.effect("final answers: settled, re-settled, read and removed; values checked as a response's", () =>
        Effect.gen(function*() {
          const { admin, alice, bob, recordIds } = yield* seeded([["a", "b"]])
          const id = RecordId.make(recordIds[0]!)
          const settled = yield* admin.client.review.settle({
            path: { id },
            payload: {
              items: [
                { question: "label", value: "b", source: "response", source_user_id: bob.user.id, note: "bob is right" },
                { question: "rating", value: 4, source: "reviewer" }
              ]
            }
          })
          expect(settled.items.map((f) => [f.question, f.value, f.source, f.source_user_id, f.settled_by, f.note])).toEqual([
            ["label", "b", "response", bob.user.id, admin.user.id, "bob is right"],
            ["rating", 4, "reviewer", null, admin.user.id, null]
          ])
          // Questions not named keep their answer.
          const resettled = yield* admin.client.review.settle({
            path: { id },
            payload: { items: [{ question: "label", value: "a", source: "response", source_user_id: alice.user.id }] }
          })
          expect(resettled.items.map((f) => [f.question, f.value])).toEqual([["label", "a"], ["rating", 4]])
          expect(yield* admin.client.review.finalAnswers({ path: { id } })).toEqual(resettled)
          const left = yield* admin.client.review.unsettle({ path: { id, question: "rating" } })
          expect(left.items.map((f) => f.question)).toEqual(["label"])
          yield* expectFailure(admin.client.review.unsettle({ path: { id, question: "rating" } }), "NotFound")
          yield* expectFailure(admin.client.review.unsettle({ path: { id, question: "nope" } }), "NotFound")
          const settle = (items: ReadonlyArray<Json>) =>
            admin.client.review.settle({ path: { id }, payload: { items: items as any } })
          yield* expectFailure(settle([{ question: "nope", value: "a", source: "reviewer" }]), "Unprocessable", /`nope` is not a question/)
          yield* expectFailure(settle([{ question: "label", value: "z", source: "reviewer" }]), "Unprocessable", /not a valid label/)
          yield* expectFailure(settle([{ question: "rating", value: 9, source: "reviewer" }]), "Unprocessable", /not a valid rating/)
          yield* expectFailure(settle([{ question: "label", value: "a", source: "response" }]), "Unprocessable", /needs its source_user_id/)
          yield* expectFailure(
            settle([{ question: "label", value: "a", source: "response", source_user_id: admin.user.id }]),
            "Unprocessable",
            /has no submitted response/
          )
          yield* expectFailure(
            settle([{ question: "label", value: "a", source: "reviewer", source_user_id: alice.user.id }]),
            "Unprocessable",
            /only for a final answer from a response/
          )
          yield* expectFailure(
            settle([{ question: "label", value: "a", source: "reviewer" }, { question: "label", value: "b", source: "reviewer" }]),
            "Unprocessable",
            /more than once/
          )
          yield* expectFailure(
            admin.client.review.finalAnswers({ path: { id: RecordId.make("00000000-0000-4000-8000-000000000000") } }),
            "NotFound"
          )
          // Annotators answer blind: no final answers for them.
          yield* expectFailure(alice.client.review.finalAnswers({ path: { id } }), "Forbidden")
        }), TEST_TIMEOUT)

      it.effect("deleting a record deletes its final answers", () =>
        Effect.gen(function*() {
          const { admin, recordIds } = yield* seeded([["a", "a"], ["b", "b"]])
          const [first, second] = recordIds.map((r) => RecordId.make(r))
          for (const id of [first!, second!]) {
            yield* admin.client.review.settle({ path: { id }, payload: { items: [{ question: "label", value: "a", source: "reviewer" }] } })
          }
          const deleted = yield* send("DELETE", `/api/v1/records/${first}`, undefined, admin.user.api_key)
          expect(deleted.status).toBe(200)
          yield* expectFailure(admin.client.review.finalAnswers({ path: { id: first! } }), "NotFound")
          expect((yield* admin.client.review.finalAnswers({ path: { id: second! } })).items).toHaveLength(1)
        }), TEST_TIMEOUT)

      it.effect("agreement: a hand-made label question's figures, records compared, single and unanswered", () =>
        Effect.gen(function*() {
          // alice and bob agree on three of four records; one record has one answer, one none.
          const { admin, alice, bob, datasetId } = yield* seeded([["a", "a"], ["a", "b"], ["b", "b"], ["b", "b"], ["a", null], [null, null]])
          const report = yield* admin.client.review.agreement({ path: { id: datasetId }, payload: { questions: ["label"] } })
          expect(report.records).toBe(6)
          expect(report.questions.map((q) => q.question)).toEqual(["label"])
          const label = report.questions[0]!
          expect([label.records_compared, label.records_single, label.records_unanswered, label.records_disagreeing]).toEqual([4, 1, 1, 1])
          const figure = (measure: string) => label.figures.find((f) => f.measure === measure)?.value
          // Krippendorff's α, nominal: 1 − (n − 1)·(o_ab + o_ba) / (2·n_a·n_b) = 1 − 7·2 / (2·3·5) = 8/15.
          expect(figure("krippendorff_alpha")).toBeCloseTo(8 / 15, 10)
          // Cohen's κ: p_o = 3/4, p_e = ½·¼ + ½·¾ = ½, κ = ½.
          expect(figure("cohen_kappa")).toBeCloseTo(0.5, 10)
          expect(label.pairs).toEqual([expect.objectContaining({ records: 4, measure: "cohen_kappa" })])
          expect(new Set([label.pairs[0]!.a, label.pairs[0]!.b])).toEqual(new Set([alice.user.id, bob.user.id]))
          expect(label.annotators.map((a) => [a.username, a.answers]).sort()).toEqual(
            [[alice.user.username, 5], [bob.user.username, 4]].sort()
          )
          // Every question without `questions`; the others have no answers here.
          const all = yield* admin.client.review.agreement({ path: { id: datasetId }, payload: {} })
          expect(all.questions.map((q) => q.question)).toEqual(["label", "rating", "topics", "note"])
          expect(all.questions[1]).toMatchObject({ records_compared: 0, records_unanswered: 6 })
        }), TEST_TIMEOUT)

      it.effect("agreement: perfect agreement is α = 1; a search narrows the records; errors", () =>
        Effect.gen(function*() {
          const { admin, alice, datasetId, rita, w } = yield* seeded([["a", "a", "a"], ["b", "b", "b"], ["c", "c", "c"], ["a", "b", "c"]])
          const narrowed = yield* admin.client.review.agreement({
            path: { id: datasetId },
            payload: {
              questions: ["label"],
              query: { filters: { and: [{ type: "terms", scope: { entity: "record", property: "external_id" }, values: ["r0", "r1", "r2"] }] } }
            }
          })
          expect(narrowed.records).toBe(3)
          const alpha = narrowed.questions[0]!.figures.find((f) => f.measure === "krippendorff_alpha")
          expect(alpha?.value).toBe(1)
          const whole = yield* admin.client.review.agreement({ path: { id: datasetId }, payload: { questions: ["label"] } })
          expect(whole.records).toBe(4)
          expect(whole.questions[0]!.figures.find((f) => f.measure === "krippendorff_alpha")?.value).toBeLessThan(1)
          yield* expectFailure(
            admin.client.review.agreement({ path: { id: datasetId }, payload: { questions: ["nope"] } }),
            "Unprocessable",
            /`nope` is not a question/
          )
          yield* expectFailure(
            admin.client.review.agreement({
              path: { id: datasetId },
              payload: { query: { filters: { and: [{ type: "terms", scope: { entity: "metadata", metadata_property: "nope" }, values: ["x"] }] } } }
            }),
            "Unprocessable"
          )
          yield* expectFailure(
            admin.client.review.agreement({ path: { id: DatasetId.make("00000000-0000-4000-8000-000000000000") }, payload: {} }),
            "NotFound"
          )
          yield* expectFailure(alice.client.review.agreement({ path: { id: datasetId }, payload: {} }), "Forbidden")
          // A named reviewer reads it.
          yield* (yield* ownerClient).review.addReviewer({ path: { id: w.id }, payload: { user_id: rita.user.id } })
          expect((yield* rita.client.review.agreement({ path: { id: datasetId }, payload: {} })).records).toBe(4)
        }), TEST_TIMEOUT)

      it.effect("queue: counts, least agreement first, disagreements, settled and unsettled, annotator and question", () =>
        Effect.gen(function*() {
          const { admin, carol, datasetId, recordIds, rita, w } = yield* seeded([
            ["a", "a", "a"],
            ["a", "b", "a"],
            ["a", "b", "c"],
            ["b", null, null],
            ["c", "c", null],
            [null, null, null]
          ])
          const [r0, r1, r2, r3, r4] = recordIds
          const queue = (payload: Json, urlParams = { offset: 0, limit: 50 }) =>
            admin.client.review.queue({ path: { id: datasetId }, urlParams, payload: { order: "least_agreement", queue: "all", ...payload } })
          const all = yield* queue({})
          expect(all.counts).toEqual({ all: 5, disagreement: 2, unsettled: 5, settled: 0 })
          expect(all.total).toBe(5)
          expect(all.items.map((i) => i.record.id)).toEqual([r2, r1, r0, r4, r3])
          expect(all.items.map((i) => i.agreement)).toEqual([0, expect.closeTo(1 / 3, 10), 1, 1, null])
          expect(all.items.map((i) => i.disagreements)).toEqual([["label"], ["label"], [], [], []])
          // Everyone's responses and the record's fields.
          expect(all.items[0]!.record.responses).toHaveLength(3)
          expect(all.items[0]!.record.fields).toEqual({ text: "record 2" })
          const byTime = yield* queue({ order: "inserted_at" })
          expect(byTime.items.map((i) => i.record.id)).toEqual([r0, r1, r2, r3, r4])
          const paged = yield* queue({ order: "inserted_at" }, { offset: 1, limit: 2 })
          expect([paged.total, ...paged.items.map((i) => i.record.id)]).toEqual([5, r1, r2])
          const disagreeing = yield* queue({ queue: "disagreement" })
          expect(disagreeing.items.map((i) => i.record.id)).toEqual([r2, r1])
          yield* admin.client.review.settle({
            path: { id: RecordId.make(r0!) },
            payload: { items: [{ question: "label", value: "a", source: "reviewer" }] }
          })
          const settled = yield* queue({ queue: "settled" })
          expect(settled.counts).toEqual({ all: 5, disagreement: 2, unsettled: 4, settled: 1 })
          expect(settled.items.map((i) => [i.record.id, i.final_answers.map((f) => f.value)])).toEqual([[r0, ["a"]]])
          const unsettled = yield* queue({ queue: "unsettled", order: "inserted_at" })
          expect(unsettled.items.map((i) => i.record.id)).toEqual([r1, r2, r3, r4])
          const carols = yield* queue({ annotator: carol.user.id, order: "inserted_at" })
          expect(carols.items.map((i) => i.record.id)).toEqual([r0, r1, r2])
          expect((yield* queue({ question: "rating" })).total).toBe(0)
          yield* expectFailure(queue({ question: "nope" }), "Unprocessable", /`nope` is not a question/)
          const narrowed = yield* queue({
            order: "inserted_at",
            query: { filters: { and: [{ type: "terms", scope: { entity: "record", property: "external_id" }, values: ["r1", "r4", "r5"] }] } }
          })
          expect(narrowed.items.map((i) => i.record.id)).toEqual([r1, r4])
          // A named reviewer sees everyone's answers here, an annotator nothing.
          yield* expectFailure(
            rita.client.review.queue({ path: { id: datasetId }, urlParams: { offset: 0, limit: 50 }, payload: { queue: "all", order: "inserted_at" } }),
            "Forbidden"
          )
          yield* (yield* ownerClient).review.addReviewer({ path: { id: w.id }, payload: { user_id: rita.user.id } })
          const asReviewer = yield* rita.client.review.queue({
            path: { id: datasetId },
            urlParams: { offset: 0, limit: 50 },
            payload: { queue: "all", order: "inserted_at" }
          })
          expect(asReviewer.items.map((i) => i.record.responses?.length)).toEqual([3, 3, 3, 1, 2])
        }), TEST_TIMEOUT)

      it.effect("queue: a stable sample, the same for the same seed", () =>
        Effect.gen(function*() {
          const labels = Array.from({ length: 40 }, (_, i) => [LABELS[i % 3]!, LABELS[(i + 1) % 3]!])
          const { admin, datasetId, recordIds } = yield* seeded(labels)
          const sample = (seed: string, percent: number) =>
            Effect.map(
              admin.client.review.queue({
                path: { id: datasetId },
                urlParams: { offset: 0, limit: 100 },
                payload: { queue: "sample", order: "inserted_at", seed, sample_percent: percent }
              }),
              (page) => page.items.map((i) => i.record.id)
            )
          const first = yield* sample("s1", 30)
          expect(yield* sample("s1", 30)).toEqual(first)
          // The documented hash: FNV-1a of "seed:id" below the percentage.
          expect(first).toEqual(recordIds.filter((id) => inSample("s1", id, 30)))
          expect(first.length).toBeGreaterThan(0)
          expect(first.length).toBeLessThan(40)
          expect(yield* sample("s2", 30)).not.toEqual(first)
          expect(yield* sample("s1", 100)).toEqual(recordIds)
        }), TEST_TIMEOUT)

      it.effect("accept agreed: unanimous answers become final answers, once; settled questions are left alone", () =>
        Effect.gen(function*() {
          const { admin, alice, datasetId, recordIds } = yield* seeded(
            [["a", "a", "a"], ["a", "b", "a"], ["b", null, null], ["c", "c", null]],
            // Label sets in another order are the same answer.
            (i) => i === 0 ? [{ topics: { value: ["a", "b"] } }, { topics: { value: ["b", "a"] } }, { topics: { value: ["a", "b"] } }] : {}
          )
          const [r0, r1, r2, r3] = recordIds.map((id) => RecordId.make(id))
          // r3's label is settled by hand first: kept.
          yield* admin.client.review.settle({ path: { id: r3! }, payload: { items: [{ question: "label", value: "a", source: "reviewer" }] } })
          const accept = (payload: Json) =>
            admin.client.review.acceptAgreed({ path: { id: datasetId }, payload: { min_answers: 2, ...payload } })
          // A search narrows it: r1's answers differ, so nothing there.
          const only = (ids: ReadonlyArray<string>) => ({
            filters: { and: [{ type: "terms", scope: { entity: "record", property: "external_id" }, values: ids }] }
          })
          expect(yield* accept({ query: only(["r1"]) })).toEqual({ settled: 0, records: 0 })
          expect(yield* accept({})).toEqual({ settled: 2, records: 1 })
          const finals = yield* admin.client.review.finalAnswers({ path: { id: r0! } })
          expect(finals.items.map((f) => [f.question, f.value, f.source, f.settled_by, f.source_user_id])).toEqual([
            ["label", "a", "agreement", admin.user.id, null],
            ["topics", ["a", "b"], "agreement", admin.user.id, null]
          ])
          expect((yield* admin.client.review.finalAnswers({ path: { id: r1! } })).items).toEqual([])
          expect((yield* admin.client.review.finalAnswers({ path: { id: r3! } })).items.map((f) => [f.value, f.source])).toEqual([
            ["a", "reviewer"]
          ])
          // Again: nothing left to accept; with one answer enough, the single answer of r2.
          expect(yield* accept({})).toEqual({ settled: 0, records: 0 })
          expect(yield* accept({ min_answers: 1, questions: ["label"] })).toEqual({ settled: 1, records: 1 })
          expect((yield* admin.client.review.finalAnswers({ path: { id: r2! } })).items.map((f) => f.value)).toEqual(["b"])
          yield* expectFailure(accept({ questions: ["nope"] }), "Unprocessable")
          yield* expectFailure(alice.client.review.acceptAgreed({ path: { id: datasetId }, payload: { min_answers: 2 } }), "Forbidden")
        }), TEST_TIMEOUT)
    })
  })
}

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

type Json = Record<string, any>

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
        }))

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
        }))

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
        }))

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
        }))
    })
  })
}

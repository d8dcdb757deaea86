/**
 * Assignment (`/api/gloss`, a Gloss extension): queue settings and their defaults, assigning records to users and
 * groups (by id, by search, everything), removing and moving assignments, quotas, priorities, the queue's order
 * (inserted, and the per-user shuffle checked against FNV-1a computed here), "only" mode, leases (reserved, expired,
 * released), paging, Argilla's `/api/v1` searches left as they were, blind mode, and what goes with a deleted
 * record, dataset or membership; through the typed client on both databases.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { QueuePage } from "../../src/domain/Assignment.js"
import { DatasetId, RecordId, UserId } from "../../src/domain/Ids.js"
import { dialects } from "../support/databases.js"
import { datasetPath, draftDataset, send } from "../support/datasets.js"
import { expectFailure } from "../support/expect.js"
import { userWith, workspace } from "../support/fixtures.js"
import { ownerClient, raw, TestServerLive } from "../support/server.js"

type Json = Record<string, any>

/** Each test seeds a dataset and a few users, then makes some dozens of calls; a loaded machine makes them slow. */
const TEST_TIMEOUT = 120_000

/** FNV-1a, 32 bits, over the UTF-8 bytes of `userId:recordId`: the shuffled order's key as documented. */
const fnv1a = (text: string) => {
  let hash = 0x811c9dc5
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash >>> 0
}

/**
 * A published dataset of `n` records (`r0`…, in that order, each with a suggestion `a` for `label`), a text field and
 * a required label question `label` (a, b); annotators alice, bob and carol, an admin, all members; an annotator
 * outside the workspace.
 */
const seeded = (n: number) =>
  Effect.gen(function*() {
    const w = yield* workspace()
    const ds = yield* draftDataset(w)
    yield* send("POST", datasetPath(ds, "/fields"), { name: "text", title: "Text", settings: { type: "text" } })
    yield* send("POST", datasetPath(ds, "/questions"), {
      name: "label",
      title: "Label",
      required: true,
      settings: { type: "label_selection", options: [{ value: "a", text: "A" }, { value: "b", text: "B" }] }
    })
    yield* send("PUT", datasetPath(ds, "/publish"))
    const items = Array.from({ length: n }, (_, i) => ({
      external_id: `r${i}`,
      fields: { text: `record ${i}` },
      suggestions: [{ question_name: "label", value: "a", agent: "model" }]
    }))
    // In batches: the bulk endpoint takes at most 500 records a call.
    for (let i = 0; i < items.length; i += 500) {
      expect((yield* send("POST", datasetPath(ds, "/records/bulk"), { items: items.slice(i, i + 500) })).status).toBe(201)
    }
    const owner = yield* ownerClient
    const id = DatasetId.make(ds.id)
    const listed = n === 0 ? [] : (yield* owner.records.list({ path: { id }, urlParams: { limit: 1000 } })).items
    const byExternal = new Map(listed.map((r) => [r.external_id, RecordId.make(r.id)]))
    const ids = Array.from({ length: n }, (_, i) => byExternal.get(`r${i}`)!)
    const alice = yield* userWith("annotator", [w])
    const bob = yield* userWith("annotator", [w])
    const carol = yield* userWith("annotator", [w])
    const admin = yield* userWith("admin", [w])
    const outsider = yield* userWith("annotator")
    return { w, ds, id, ids, owner, alice, bob, carol, admin, outsider }
  })

type Who = { readonly client: Effect.Effect.Success<typeof ownerClient> }

/** One page of `who`'s queue. */
const queue = (
  who: Who,
  id: DatasetId,
  opts: { offset?: number; limit?: number; reserve?: boolean; query?: Json; include?: ReadonlyArray<string> } = {}
) =>
  who.client.assignment.queue({
    path: { id },
    urlParams: { offset: opts.offset ?? 0, limit: opts.limit ?? 1000, ...(opts.include === undefined ? {} : { include: opts.include }) },
    payload: {
      ...(opts.reserve === undefined ? {} : { reserve: opts.reserve }),
      ...(opts.query === undefined ? {} : { query: opts.query as never })
    }
  })

/** The record ids of `who`'s whole queue (one page, nothing reserved). */
const queueIds = (who: Who, id: DatasetId) => Effect.map(queue(who, id, { reserve: false }), (page) => page.items.map((i) => i.record.id))

const answer = (who: Who, record: RecordId, status: "submitted" | "discarded" | "draft" = "submitted") =>
  who.client.responses.create({ path: { id: record }, payload: { status, values: { label: { value: "b" } } } })

const gloss = (path: string) => `/api/gloss${path}`

/** Rows of `table` whose column `column` is `value` (for what no endpoint shows: leases, cascades). */
const countWhere = (table: string, column: string, value: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ n: number | string }>`select count(*) as n from ${sql(table)} where ${sql(column)} = ${value}`
    return Number(rows[0]!.n)
  }).pipe(Effect.orDie)

const byExternalId = (ids: ReadonlyArray<RecordId>, wanted: ReadonlyArray<number>) => wanted.map((i) => ids[i]!)

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 120_000 })("assignment", (it) => {
      it.effect("settings: the defaults without a row, changed by owners and admins only, checked; 401, 403, 404", () =>
        Effect.gen(function*() {
          const { admin, alice, id, outsider, owner } = yield* seeded(2)
          const defaults = { assigned: "first", order: "inserted", lease_minutes: 30, blind: false, quota: null, min_submitted: 1, in_use: false }
          expect(yield* alice.client.assignment.settings({ path: { id } })).toEqual(defaults)
          expect(yield* countWhere("queue_settings", "dataset_id", id)).toBe(0)
          yield* expectFailure(alice.client.assignment.updateSettings({ path: { id }, payload: { blind: true } }), "Forbidden")
          yield* expectFailure(outsider.client.assignment.settings({ path: { id } }), "Forbidden")
          const changed = yield* admin.client.assignment.updateSettings({
            path: { id },
            payload: { order: "shuffled", lease_minutes: 5, quota: 7 }
          })
          expect(changed).toEqual({ ...defaults, order: "shuffled", lease_minutes: 5, quota: 7, in_use: true })
          // Settings left out keep their value; null takes the quota away.
          const again = yield* owner.assignment.updateSettings({ path: { id }, payload: { assigned: "only", quota: null } })
          expect(again).toEqual({ ...defaults, assigned: "only", order: "shuffled", lease_minutes: 5, in_use: true })
          // Blind mode alone does not put the queue in use; an assignment or a priority does.
          const blindOnly = yield* owner.assignment.updateSettings({
            path: { id },
            payload: { assigned: "first", order: "inserted", lease_minutes: 30, blind: true }
          })
          expect(blindOnly).toEqual({ ...defaults, blind: true })
          const [first] = (yield* owner.records.list({ path: { id }, urlParams: {} })).items
          yield* owner.assignment.prioritize({ path: { id }, payload: { record_ids: [first!.id], priority: 1 } })
          expect((yield* alice.client.assignment.settings({ path: { id } })).in_use).toBe(true)
          yield* owner.assignment.prioritize({ path: { id }, payload: { record_ids: [first!.id], priority: 0 } })
          yield* owner.assignment.assign({ path: { id }, payload: { users: [alice.user.id], record_ids: [first!.id] } })
          expect((yield* alice.client.assignment.settings({ path: { id } })).in_use).toBe(true)
          yield* owner.assignment.unassign({ path: { id }, payload: {} })
          expect((yield* alice.client.assignment.settings({ path: { id } })).in_use).toBe(false)
          const restored = yield* owner.assignment.updateSettings({
            path: { id },
            payload: { assigned: "only", order: "shuffled", lease_minutes: 5, blind: false }
          })
          expect(restored).toEqual(again)
          expect(yield* alice.client.assignment.settings({ path: { id } })).toEqual(again)
          // min_submitted is the dataset's distribution.
          yield* send("PATCH", `/api/v1/datasets/${id}`, { distribution: { strategy: "overlap", min_submitted: 2 } })
          expect((yield* alice.client.assignment.settings({ path: { id } })).min_submitted).toBe(2)
          for (const bad of [{ lease_minutes: 0 }, { order: "random" }, { assigned: "all" }, { quota: 0 }, { lease_minutes: "ten" }]) {
            const response = yield* send("PUT", gloss(`/datasets/${id}/queue-settings`), bad)
            expect([bad, response.status]).toEqual([bad, 422])
          }
          const unknown = DatasetId.make("00000000-0000-4000-8000-000000000000")
          yield* expectFailure(owner.assignment.settings({ path: { id: unknown } }), "NotFound")
          yield* expectFailure(owner.assignment.updateSettings({ path: { id: unknown }, payload: {} }), "NotFound")
          yield* expectFailure(owner.assignment.queue({ path: { id: unknown }, urlParams: {}, payload: {} }), "NotFound")
          expect((yield* raw(gloss(`/datasets/${id}/queue-settings`))).status).toBe(401)
          expect((yield* raw(gloss(`/me/datasets/${id}/queue`), { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(401)
        }), TEST_TIMEOUT)

      it.effect("assign: a group with per_record shares evenly; by ids, by a search, everything; 403 and 422", () =>
        Effect.gen(function*() {
          const { admin, alice, bob, carol, id, ids, outsider, owner } = yield* seeded(12)
          const trio = [alice.user.id, bob.user.id, carol.user.id] as const
          expect(yield* admin.client.assignment.assign({ path: { id }, payload: { users: trio, per_record: 2 } }))
            .toEqual({ records: 12, assigned: 24 })
          const summary = yield* owner.assignment.summary({ path: { id } })
          const row = (user: UserId) => summary.users.find((u) => u.user_id === user)!
          expect(trio.map((u) => row(u).assigned)).toEqual([8, 8, 8])
          expect(summary.records).toBe(12)
          expect(summary.assigned_records).toBe(12)
          expect(row(admin.user.id)).toMatchObject({ assigned: 0, done: 0, leased: 0, quota: null })
          // Every record is held by exactly two of them.
          for (const record of ids) {
            const holders = []
            for (const who of [alice, bob, carol]) if ((yield* queueIds(who, id)).includes(record)) holders.push(who.user.id)
            expect(holders.length).toBe(2)
          }
          // Again: every record has its two already.
          expect(yield* owner.assignment.assign({ path: { id }, payload: { users: trio, per_record: 2 } }))
            .toEqual({ records: 12, assigned: 0 })
          expect(yield* owner.assignment.unassign({ path: { id }, payload: {} })).toEqual({ removed: 24 })
          expect((yield* owner.assignment.summary({ path: { id } })).assigned_records).toBe(0)

          // By ids (duplicates count once).
          expect(yield* owner.assignment.assign({
            path: { id },
            payload: { users: [alice.user.id], record_ids: [ids[0]!, ids[1]!, ids[0]!] }
          })).toEqual({ records: 2, assigned: 2 })
          // By a search: the records it matches.
          const query = { filters: { and: [{ type: "terms", scope: { entity: "record", property: "external_id" }, values: ["r3", "r4"] }] } }
          expect(yield* owner.assignment.assign({ path: { id }, payload: { users: [bob.user.id], query: query as never } }))
            .toEqual({ records: 2, assigned: 2 })
          expect((yield* queue(bob, id, { reserve: false })).items.filter((i) => i.reason === "assigned").map((i) => i.record.id))
            .toEqual([ids[3], ids[4]])
          // Ids and a search: the ids the search matches.
          expect(yield* owner.assignment.assign({
            path: { id },
            payload: { users: [carol.user.id], record_ids: [ids[3]!, ids[5]!], query: query as never }
          })).toEqual({ records: 1, assigned: 1 })
          // Neither: every record; the group's default per_record is all of it.
          expect(yield* owner.assignment.assign({ path: { id }, payload: { users: [carol.user.id, admin.user.id] } }))
            .toEqual({ records: 12, assigned: 23 })

          // Annotators may not; users must be members; records must be the dataset's; bodies are checked.
          yield* expectFailure(alice.client.assignment.assign({ path: { id }, payload: { users: [alice.user.id] } }), "Forbidden")
          yield* expectFailure(alice.client.assignment.summary({ path: { id } }), "Forbidden")
          yield* expectFailure(alice.client.assignment.unassign({ path: { id }, payload: {} }), "Forbidden")
          yield* expectFailure(
            alice.client.assignment.move({ path: { id }, payload: { from: bob.user.id, to: [alice.user.id] } }),
            "Forbidden"
          )
          yield* expectFailure(
            alice.client.assignment.prioritize({ path: { id }, payload: { priority: 3 } }),
            "Forbidden"
          )
          yield* expectFailure(
            alice.client.assignment.setQuota({ path: { id }, payload: { user_id: alice.user.id, quota: 9 } }),
            "Forbidden"
          )
          yield* expectFailure(
            owner.assignment.assign({ path: { id }, payload: { users: [alice.user.id, outsider.user.id] } }),
            "Unprocessable",
            /not members of the dataset's workspace/
          )
          const other = yield* seeded(1)
          yield* expectFailure(
            owner.assignment.assign({ path: { id }, payload: { users: [alice.user.id], record_ids: [other.ids[0]!] } }),
            "Unprocessable",
            /not in this dataset/
          )
          yield* expectFailure(
            owner.assignment.prioritize({ path: { id }, payload: { priority: 1, record_ids: [other.ids[0]!] } }),
            "Unprocessable",
            /not in this dataset/
          )
          const path = gloss(`/datasets/${id}/assignments`)
          for (
            const bad of [
              {},
              { users: [] },
              { users: ["not-a-uuid"] },
              { users: [alice.user.id], per_record: 0 },
              { users: [alice.user.id], record_ids: "r0" }
            ]
          ) {
            const response = yield* send("POST", path, bad)
            expect([bad, response.status]).toEqual([bad, 422])
          }
          expect((yield* send("POST", gloss(`/datasets/${id}/assignments/move`), { from: alice.user.id, to: [] })).status).toBe(422)
          expect((yield* send("POST", gloss(`/datasets/${id}/priorities`), { priority: 2_000_000 })).status).toBe(422)
          expect((yield* send("PUT", gloss(`/datasets/${id}/quotas`), { user_id: alice.user.id, quota: -1 })).status).toBe(422)
          const unknown = DatasetId.make("00000000-0000-4000-8000-000000000000")
          yield* expectFailure(owner.assignment.assign({ path: { id: unknown }, payload: { users: [alice.user.id] } }), "NotFound")
          yield* expectFailure(owner.assignment.summary({ path: { id: unknown } }), "NotFound")
          yield* expectFailure(owner.assignment.unassign({ path: { id: unknown }, payload: {} }), "NotFound")
          yield* expectFailure(owner.assignment.release({ path: { id: unknown } }), "NotFound")
        }), TEST_TIMEOUT)

      it.effect("remove and move: only what `from` has not answered moves, one user of `to` per record", () =>
        Effect.gen(function*() {
          const { alice, bob, carol, id, ids, outsider, owner } = yield* seeded(6)
          yield* owner.assignment.assign({ path: { id }, payload: { users: [alice.user.id] } })
          yield* answer(alice, ids[0]!, "submitted")
          yield* answer(alice, ids[1]!, "discarded")
          yield* answer(alice, ids[2]!, "draft")
          expect(yield* owner.assignment.unassign({ path: { id }, payload: { users: [alice.user.id], record_ids: [ids[5]!] } }))
            .toEqual({ removed: 1 })
          // Nobody else's: nothing to remove.
          expect(yield* owner.assignment.unassign({ path: { id }, payload: { users: [bob.user.id] } })).toEqual({ removed: 0 })
          yield* expectFailure(
            owner.assignment.move({ path: { id }, payload: { from: alice.user.id, to: [outsider.user.id] } }),
            "Unprocessable"
          )
          // A draft is not an answer: r2, r3 and r4 move, split between bob and carol.
          expect(yield* owner.assignment.move({ path: { id }, payload: { from: alice.user.id, to: [bob.user.id, carol.user.id] } }))
            .toEqual({ removed: 3, assigned: 3 })
          const summary = yield* owner.assignment.summary({ path: { id } })
          const row = (user: UserId) => summary.users.find((u) => u.user_id === user)!
          expect(row(alice.user.id)).toMatchObject({ assigned: 2, assigned_done: 2, done: 2 })
          expect(row(bob.user.id).assigned + row(carol.user.id).assigned).toBe(3)
          expect(Math.abs(row(bob.user.id).assigned - row(carol.user.id).assigned)).toBe(1)
          const moved = [...(yield* queueIds(bob, id)), ...(yield* queueIds(carol, id))]
          expect(moved.filter((r) => [ids[2], ids[3], ids[4]].includes(r as RecordId)).sort())
            .toEqual([ids[2]!, ids[3]!, ids[4]!].sort())
          // Moving a selection: only the records named.
          expect(yield* owner.assignment.move({
            path: { id },
            payload: { from: bob.user.id, to: [carol.user.id], record_ids: [ids[0]!] }
          })).toEqual({ removed: 0, assigned: 0 })
          // Everybody's, everywhere.
          expect(yield* owner.assignment.unassign({ path: { id }, payload: {} })).toEqual({ removed: 5 })
        }), TEST_TIMEOUT)

      it.effect("quotas: the dataset's and a user's own cap what the pool hands out; assigned records are not capped", () =>
        Effect.gen(function*() {
          const { alice, bob, carol, id, ids, outsider, owner } = yield* seeded(10)
          yield* owner.assignment.updateSettings({ path: { id }, payload: { quota: 3 } })
          const first = yield* queue(alice, id, { reserve: false })
          expect([first.total, first.pool, first.quota_left]).toEqual([3, 3, 3])
          expect(first.items.map((i) => i.record.id)).toEqual(ids.slice(0, 3))
          // Two reserved: they count against the quota while held.
          yield* queue(alice, id, { limit: 2 })
          const held = yield* queue(alice, id, { reserve: false })
          expect([held.total, held.quota_left]).toEqual([3, 1])
          yield* answer(alice, ids[0]!)
          yield* answer(alice, ids[1]!)
          // Answered from the pool: they count too.
          const after = yield* queue(alice, id, { reserve: false })
          expect([after.total, after.quota_left]).toEqual([1, 1])
          // The queue stops at the quota: once taken, nothing more.
          yield* queue(alice, id)
          yield* answer(alice, ids[2]!)
          expect(yield* queue(alice, id)).toMatchObject({ total: 0, quota_left: 0, items: [] })

          // A user's own quota, over the dataset's; null gives the dataset's back.
          const set = yield* owner.assignment.setQuota({ path: { id }, payload: { user_id: bob.user.id, quota: 5 } })
          expect(set.users.find((u) => u.user_id === bob.user.id)).toMatchObject({ quota: 5, own_quota: 5 })
          expect(set.users.find((u) => u.user_id === alice.user.id)).toMatchObject({ quota: 3, own_quota: null })
          // An own quota equal to the dataset's is still the user's own.
          const same = yield* owner.assignment.setQuota({ path: { id }, payload: { user_id: carol.user.id, quota: 3 } })
          expect(same.users.find((u) => u.user_id === carol.user.id)).toMatchObject({ quota: 3, own_quota: 3 })
          yield* owner.assignment.setQuota({ path: { id }, payload: { user_id: carol.user.id, quota: null } })
          expect((yield* queue(bob, id, { reserve: false })).total).toBe(5)
          const cleared = yield* owner.assignment.setQuota({ path: { id }, payload: { user_id: bob.user.id, quota: null } })
          expect(cleared.users.find((u) => u.user_id === bob.user.id)).toMatchObject({ quota: 3, own_quota: null })
          expect((yield* queue(bob, id, { reserve: false })).total).toBe(3)
          // An owner outside the workspace who draws from the pool is listed, as not a member, with what they hold.
          yield* owner.assignment.queue({ path: { id }, urlParams: { limit: 1 }, payload: {} })
          const outside = (yield* owner.assignment.summary({ path: { id } })).users.filter((u) => !u.member)
          expect(outside.map((u) => [u.leased, u.assigned])).toEqual([[1, 0]])
          yield* owner.assignment.release({ path: { id } })
          yield* expectFailure(
            owner.assignment.setQuota({ path: { id }, payload: { user_id: outsider.user.id, quota: 2 } }),
            "Unprocessable"
          )

          // Carol: four assigned records, all in her queue, and three from the pool (six left, three answered by alice).
          yield* owner.assignment.assign({ path: { id }, payload: { users: [carol.user.id], record_ids: ids.slice(6, 10) } })
          const carols = yield* queue(carol, id, { reserve: false })
          expect([carols.total, carols.assigned, carols.pool, carols.quota_left]).toEqual([7, 4, 3, 3])
          expect(carols.items.map((i) => i.record.id)).toEqual([...ids.slice(6, 10), ...ids.slice(3, 6)])
          // Alice's quota is spent; an assignment still reaches her.
          yield* owner.assignment.assign({ path: { id }, payload: { users: [alice.user.id], record_ids: [ids[9]!] } })
          expect((yield* queue(alice, id, { reserve: false })).items.map((i) => [i.record.id, i.reason])).toEqual([[ids[9], "assigned"]])
        }), TEST_TIMEOUT)

      it.effect("priorities: higher first in both parts, 0 clears", () =>
        Effect.gen(function*() {
          const { alice, id, ids, owner } = yield* seeded(6)
          expect(yield* owner.assignment.prioritize({ path: { id }, payload: { record_ids: [ids[4]!], priority: 5 } }))
            .toEqual({ records: 1 })
          yield* owner.assignment.prioritize({ path: { id }, payload: { record_ids: [ids[2]!], priority: 1 } })
          yield* owner.assignment.prioritize({ path: { id }, payload: { record_ids: [ids[0]!], priority: -1 } })
          const page = yield* queue(alice, id, { reserve: false })
          expect(page.items.map((i) => [i.record.id, i.priority])).toEqual([
            [ids[4], 5], [ids[2], 1], [ids[1], 0], [ids[3], 0], [ids[5], 0], [ids[0], -1]
          ])
          expect(page.items.map((i) => i.position)).toEqual([1, 2, 3, 4, 5, 6])
          // Assigned records keep coming first, ordered by priority among themselves.
          yield* owner.assignment.assign({ path: { id }, payload: { users: [alice.user.id], record_ids: [ids[5]!, ids[0]!, ids[3]!] } })
          yield* owner.assignment.prioritize({ path: { id }, payload: { record_ids: [ids[3]!], priority: 9 } })
          expect((yield* queueIds(alice, id))).toEqual(byExternalId(ids, [3, 5, 0, 4, 2, 1]))
          // 0 clears; every record when none is named.
          yield* owner.assignment.prioritize({ path: { id }, payload: { priority: 0 } })
          expect(yield* countWhere("record_priorities", "dataset_id", id)).toBe(0)
          expect((yield* queueIds(alice, id))).toEqual(byExternalId(ids, [0, 3, 5, 1, 2, 4]))
        }), TEST_TIMEOUT)

      it.effect("order: inserted, or a shuffle of each user's own, stable, by FNV-1a of user:record", () =>
        Effect.gen(function*() {
          const { alice, bob, id, ids, owner } = yield* seeded(20)
          expect(yield* queueIds(alice, id)).toEqual(ids)
          yield* owner.assignment.updateSettings({ path: { id }, payload: { order: "shuffled" } })
          const shuffle = (user: string) =>
            ids.map((record, seq) => ({ record, seq, key: fnv1a(`${user}:${record}`) }))
              .sort((a, b) => a.key - b.key || a.seq - b.seq).map((r) => r.record)
          const alices = yield* queueIds(alice, id)
          expect(alices).toEqual(shuffle(alice.user.id))
          expect(alices).not.toEqual(ids)
          expect(yield* queueIds(alice, id)).toEqual(alices)
          const bobs = yield* queueIds(bob, id)
          expect(bobs).toEqual(shuffle(bob.user.id))
          expect(bobs).not.toEqual(alices)
          // Pages of a shuffled queue put together are the whole queue.
          const paged: Array<string> = []
          for (let offset = 0; offset < 20; offset += 6) {
            paged.push(...(yield* queue(alice, id, { offset, limit: 6, reserve: false })).items.map((i) => i.record.id))
          }
          expect(paged).toEqual(alices)
        }), TEST_TIMEOUT)

      it.effect("only: the assigned records and no pool", () =>
        Effect.gen(function*() {
          const { alice, bob, id, ids, owner } = yield* seeded(5)
          yield* owner.assignment.assign({ path: { id }, payload: { users: [alice.user.id], record_ids: ids.slice(0, 3) } })
          yield* owner.assignment.updateSettings({ path: { id }, payload: { assigned: "only", quota: 1 } })
          const page = yield* queue(alice, id)
          expect([page.total, page.assigned, page.pool]).toEqual([3, 3, 0])
          expect(page.items.every((i) => i.reason === "assigned" && i.lease_expires_at === null)).toBe(true)
          expect(yield* queue(bob, id)).toMatchObject({ total: 0, assigned: 0, pool: 0, items: [] })
          yield* owner.assignment.updateSettings({ path: { id }, payload: { assigned: "first", quota: null } })
          expect((yield* queue(bob, id, { reserve: false })).total).toBe(2)
        }), TEST_TIMEOUT)

      it.effect("leases: a reserved pool record leaves others' queues until it expires, is answered or released", () =>
        Effect.gen(function*() {
          const { alice, bob, carol, id, ids, owner } = yield* seeded(8)
          yield* owner.assignment.updateSettings({ path: { id }, payload: { lease_minutes: 1 } })
          const before = Date.now()
          const drawn = yield* queue(alice, id, { limit: 3 })
          const after = Date.now()
          expect(drawn.items.map((i) => i.record.id)).toEqual(ids.slice(0, 3))
          for (const item of drawn.items) {
            const expires = new Date(item.lease_expires_at!).getTime()
            expect(expires).toBeGreaterThanOrEqual(before + 60_000 - 1000)
            expect(expires).toBeLessThanOrEqual(after + 60_000 + 1000)
          }
          expect(yield* countWhere("record_leases", "dataset_id", id)).toBe(3)
          // min_submitted 1: what alice holds is not in bob's queue; hers still is.
          expect(yield* queueIds(bob, id)).toEqual(ids.slice(3))
          expect(yield* queueIds(alice, id)).toEqual(ids)
          const own = yield* queue(alice, id, { reserve: false })
          expect(own.items.slice(0, 3).every((i) => i.lease_expires_at !== null)).toBe(true)
          expect(own.items.slice(3).every((i) => i.lease_expires_at === null)).toBe(true)
          // Looking without reserving holds nothing.
          yield* queue(carol, id, { reserve: false, limit: 8 })
          expect(yield* queueIds(bob, id)).toEqual(ids.slice(3))
          // The summary counts the leases.
          const summary = yield* owner.assignment.summary({ path: { id } })
          expect(summary.users.find((u) => u.user_id === alice.user.id)).toMatchObject({ leased: 3, pending: 8 })
          expect(summary.users.find((u) => u.user_id === bob.user.id)).toMatchObject({ leased: 0, pending: 5 })

          // Expired (the lease written back in time): it counts for nothing; the next reservation deletes it.
          const sql = yield* SqlClient.SqlClient
          const past = new Date(Date.now() - 60_000).toISOString()
          yield* sql`update record_leases set expires_at = ${past} where record_id = ${ids[0]!}`.pipe(Effect.orDie)
          expect(yield* queueIds(bob, id)).toEqual([ids[0]!, ...ids.slice(3)])
          const bobs = yield* queue(bob, id, { limit: 1 })
          expect(bobs.items.map((i) => i.record.id)).toEqual([ids[0]])
          expect(yield* countWhere("record_leases", "user_id", alice.user.id)).toBe(2)
          expect(yield* queueIds(alice, id)).toEqual(ids.slice(1))

          // Answered: the lease is spent and the record is claimed by the answer.
          yield* answer(alice, ids[1]!)
          expect(yield* queueIds(carol, id)).toEqual(ids.slice(3))
          // A second page renews what it hands out again.
          const renewed = yield* queue(alice, id, { limit: 1 })
          expect(renewed.items[0]!.record.id).toBe(ids[2])
          expect(new Date(renewed.items[0]!.lease_expires_at!).getTime()).toBeGreaterThanOrEqual(
            new Date(drawn.items[2]!.lease_expires_at!).getTime()
          )
          // Released: everything alice held is back.
          expect(yield* alice.client.assignment.release({ path: { id } })).toEqual({ released: 1 })
          expect(yield* alice.client.assignment.release({ path: { id } })).toEqual({ released: 0 })
          expect(yield* queueIds(carol, id)).toEqual([ids[2]!, ...ids.slice(3)])
        }), TEST_TIMEOUT)

      it.effect("paging: total is the number of records a walk through the queue meets, positions 1 to total", () =>
        Effect.gen(function*() {
          const { alice, bob, carol, id, ids, owner } = yield* seeded(23)
          yield* owner.assignment.assign({ path: { id }, payload: { users: [alice.user.id], record_ids: byExternalId(ids, [20, 3, 7, 11, 1]) } })
          yield* owner.assignment.assign({ path: { id }, payload: { users: [bob.user.id], record_ids: byExternalId(ids, [5, 6]) } })
          yield* answer(alice, ids[3]!)
          yield* answer(carol, ids[9]!)
          // Carol holds r0 and r2.
          yield* queue(carol, id, { limit: 2 })
          yield* owner.assignment.prioritize({ path: { id }, payload: { record_ids: byExternalId(ids, [7, 15]), priority: 3 } })
          for (const reserve of [false, true]) {
            const walked: Array<QueuePage["items"][number]> = []
            let total = -1
            for (let offset = 0; offset < 100; offset += 4) {
              const page = yield* queue(alice, id, { offset, limit: 4, reserve })
              total = page.total
              walked.push(...page.items)
              if (page.items.length < 4) break
            }
            // 23 records, less bob's 2, carol's answer and her 2 leases, less alice's answer.
            expect(total).toBe(23 - 2 - 1 - 2 - 1)
            expect(walked.length).toBe(total)
            expect(new Set(walked.map((i) => i.record.id)).size).toBe(total)
            expect(walked.map((i) => i.position)).toEqual(Array.from({ length: total }, (_, i) => i + 1))
            expect(walked.slice(0, 4).map((i) => [i.record.external_id, i.reason])).toEqual([
              ["r7", "assigned"], ["r1", "assigned"], ["r11", "assigned"], ["r20", "assigned"]
            ])
            expect(walked[4]!.record.external_id).toBe("r15")
          }
          // Narrowed by a search: the queue's order, positions in the narrowed list.
          const query = { filters: { and: [{ type: "terms", scope: { entity: "record", property: "external_id" }, values: ["r20", "r2", "r4", "r15"] }] } }
          const narrowed = yield* queue(alice, id, { reserve: false, query })
          expect(narrowed.items.map((i) => [i.record.external_id, i.position])).toEqual([["r20", 1], ["r15", 2], ["r4", 3]])
          expect(narrowed.total).toBe(3)
        }), TEST_TIMEOUT)

      it.effect("Argilla's /api/v1 me-search is the same before and after queues, assignments and leases", () =>
        Effect.gen(function*() {
          const { alice, bob, id, ids, owner } = yield* seeded(9)
          const pending = {
            filters: { and: [{ type: "terms", scope: { entity: "response", property: "status" }, values: ["pending"] }] }
          }
          const search = (body: Json) =>
            Effect.map(
              send("POST", `/api/v1/me/datasets/${id}/records/search?limit=100`, body, alice.user.api_key),
              (response) => {
                expect(response.status).toBe(200)
                return ((response.body as Json).items as Array<Json>).map((item) => item.record.id as string)
              }
            )
          const plain = yield* search({})
          const waiting = yield* search(pending)
          expect([...plain].sort()).toEqual([...ids].sort())
          expect([...waiting].sort()).toEqual([...ids].sort())
          // The queue of a dataset nobody configured holds what Argilla's pending search does.
          expect([...(yield* queueIds(alice, id))].sort()).toEqual([...waiting].sort())
          yield* queue(alice, id, { limit: 4 })
          yield* queue(bob, id, { limit: 4 })
          yield* owner.assignment.assign({ path: { id }, payload: { users: [bob.user.id], record_ids: ids.slice(6) } })
          yield* owner.assignment.prioritize({ path: { id }, payload: { record_ids: [ids[8]!], priority: 4 } })
          yield* owner.assignment.updateSettings({ path: { id }, payload: { order: "shuffled", quota: 1 } })
          expect(yield* search({})).toEqual(plain)
          expect(yield* search(pending)).toEqual(waiting)
        }), TEST_TIMEOUT)

      it.effect("blind: annotators see no suggestions until they answer; admins, owners and reviewers always do", () =>
        Effect.gen(function*() {
          const { admin, alice, bob, id, ids, owner, w } = yield* seeded(3)
          const seen = (key: string) =>
            Effect.gen(function*() {
              const searched = yield* send("POST", `/api/v1/me/datasets/${id}/records/search?include=suggestions`, {}, key)
              const found = new Map(((searched.body as Json).items as Array<Json>).map((item) =>
                [item.record.id as string, (item.record.suggestions as Array<Json>).length]
              ))
              const bySearch = ids.map((record) => found.get(record))
              const byRead: Array<number> = []
              const byList: Array<number> = []
              for (const record of ids) {
                byRead.push(((yield* send("GET", `/api/v1/records/${record}`, undefined, key)).body as Json).suggestions.length)
                byList.push(((yield* send("GET", `/api/v1/records/${record}/suggestions`, undefined, key)).body as Json).items.length)
              }
              return { bySearch, byRead, byList }
            })
          const all = { bySearch: [1, 1, 1], byRead: [1, 1, 1], byList: [1, 1, 1] }
          expect(yield* seen(alice.user.api_key)).toEqual(all)
          yield* owner.assignment.updateSettings({ path: { id }, payload: { blind: true } })
          expect(yield* seen(alice.user.api_key)).toEqual({ bySearch: [0, 0, 0], byRead: [0, 0, 0], byList: [0, 0, 0] })
          const q = yield* queue(alice, id, { reserve: false, include: ["suggestions"] })
          expect(q.items.map((i) => i.record.suggestions?.length ?? 0)).toEqual([0, 0, 0])
          const bySuggestion = [
            { filters: { and: [{ type: "terms", scope: { entity: "suggestion", question: "label" }, values: ["a"] }] } },
            { sort: [{ scope: { entity: "suggestion", question: "label", property: "score" }, order: "desc" }] }
          ]
          for (const body of bySuggestion) {
            const response = yield* send("POST", `/api/v1/me/datasets/${id}/records/search`, body, alice.user.api_key)
            expect(response.status).toBe(422)
            expect((yield* send("POST", `/api/v1/me/datasets/${id}/records/search`, body)).status).toBe(200)
          }
          // Submitted or discarded: seen; a draft is not an answer yet.
          yield* answer(alice, ids[0]!, "submitted")
          yield* answer(alice, ids[1]!, "draft")
          yield* answer(alice, ids[2]!, "discarded")
          expect(yield* seen(alice.user.api_key)).toEqual({ bySearch: [1, 0, 1], byRead: [1, 0, 1], byList: [1, 0, 1] })
          expect((yield* seen(bob.user.api_key)).bySearch).toEqual([0, 0, 0])
          expect(yield* seen(admin.user.api_key)).toEqual(all)
          // The owner reads every record with the dataset-wide search.
          const owners = yield* send("POST", `/api/v1/datasets/${id}/records/search?include=suggestions`, {})
          expect(((owners.body as Json).items as Array<Json>).map((item) => item.record.suggestions.length)).toEqual([1, 1, 1])
          // A named reviewer reviews with the suggestions, though blind as an annotator.
          yield* owner.review.addReviewer({ path: { id: w.id }, payload: { user_id: bob.user.id } })
          const review = yield* bob.client.review.queue({ path: { id }, urlParams: { offset: 0, limit: 50 }, payload: { queue: "all", order: "least_agreement" } })
          expect(review.items.map((i) => [i.record.id, i.record.suggestions?.length])).toEqual([[ids[0], 1]])
          expect((yield* seen(bob.user.api_key)).bySearch).toEqual([0, 0, 0])
          // Blind off: everyone sees them again.
          yield* owner.assignment.updateSettings({ path: { id }, payload: { blind: false } })
          expect(yield* seen(bob.user.api_key)).toEqual(all)
        }), TEST_TIMEOUT)

      it.effect("what goes with a deleted record, a deleted dataset, and a member who leaves", () =>
        Effect.gen(function*() {
          const { alice, bob, id, ids, owner, w } = yield* seeded(4)
          yield* owner.assignment.assign({ path: { id }, payload: { users: [alice.user.id, bob.user.id], record_ids: ids.slice(0, 2) } })
          yield* owner.assignment.prioritize({ path: { id }, payload: { record_ids: [ids[0]!, ids[2]!], priority: 2 } })
          yield* owner.assignment.setQuota({ path: { id }, payload: { user_id: alice.user.id, quota: 4 } })
          yield* owner.assignment.updateSettings({ path: { id }, payload: { blind: true } })
          yield* queue(alice, id, { limit: 4 })
          expect(yield* countWhere("record_leases", "user_id", alice.user.id)).toBe(2)
          // The record: its assignments, leases and priority.
          yield* owner.records.delete({ path: { id: ids[0]! } })
          yield* owner.records.delete({ path: { id: ids[2]! } })
          expect(yield* countWhere("record_assignments", "record_id", ids[0]!)).toBe(0)
          expect(yield* countWhere("record_priorities", "dataset_id", id)).toBe(0)
          expect(yield* countWhere("record_leases", "record_id", ids[2]!)).toBe(0)
          expect((yield* owner.assignment.summary({ path: { id } })).assigned_records).toBe(1)
          // The membership: the user's assignments go, with the member.
          yield* owner.workspaces.removeUser({ path: { id: w.id, user_id: alice.user.id } })
          expect(yield* countWhere("record_assignments", "user_id", alice.user.id)).toBe(0)
          expect(yield* countWhere("record_assignments", "user_id", bob.user.id)).toBe(1)
          // What they held goes back to the pool.
          expect(yield* queueIds(bob, id)).toEqual([ids[1]!, ids[3]!])
          expect((yield* owner.assignment.summary({ path: { id } })).users.map((u) => u.user_id)).not.toContain(alice.user.id)
          yield* expectFailure(alice.client.assignment.queue({ path: { id }, urlParams: {}, payload: {} }), "Forbidden")
          // The dataset: everything of it.
          yield* owner.datasets.delete({ path: { id } })
          for (const table of ["queue_settings", "queue_quotas", "record_assignments", "record_leases", "record_priorities"]) {
            expect([table, yield* countWhere(table, "dataset_id", id)]).toEqual([table, 0])
          }
          yield* expectFailure(owner.assignment.settings({ path: { id } }), "NotFound")
        }), TEST_TIMEOUT)
    })
  })
}

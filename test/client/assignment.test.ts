/**
 * `client.assignment`, through the Promise face on both databases: a lead sets the queue settings, assigns records
 * to people named by username, id or user object, gives one record a priority, sets a quota, reads the summary, moves
 * a leaver's work and removes assignments; an annotator reads their queue (reserving a pool record) and releases it.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Client, UserNotFound } from "../../src/client/index.js"
import { RecordId } from "../../src/domain/Ids.js"
import { publishedDataset, send } from "../support/datasets.js"
import { userWith, workspace } from "../support/fixtures.js"
import { dialects } from "../support/databases.js"
import { OWNER, ownerClient, TestServer, TestServerLive } from "../support/server.js"

const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 120_000 })("assignment client", (it) => {
      it.scoped("a lead assigns by username, sets quotas and priorities, moves work; an annotator draws", () =>
        Effect.gen(function*() {
          const { url } = yield* TestServer
          const w = yield* workspace()
          const dataset = yield* publishedDataset(w)
          const items = Array.from({ length: 6 }, (_, i) => ({ external_id: `r${i}`, fields: { text: `text ${i}` } }))
          expect((yield* send("POST", `/api/v1/datasets/${dataset.id}/records/bulk`, { items })).status).toBe(201)
          const owner = yield* ownerClient
          const listed = yield* owner.records.list({ path: { id: dataset.id }, urlParams: { limit: 10 } })
          const byExternal = new Map(listed.items.map((r) => [r.external_id, RecordId.make(r.id)]))
          const r = (i: number) => byExternal.get(`r${i}`)!
          const [ann, bo, cy] = yield* Effect.all([1, 2, 3].map(() => userWith("annotator", [w])))

          const lead = yield* Effect.acquireRelease(
            Effect.sync(() => new Client({ apiUrl: url, apiKey: OWNER.apiKey })),
            (client) => Effect.promise(() => client.close())
          )
          const annotator = yield* Effect.acquireRelease(
            Effect.sync(() => new Client({ apiUrl: url, apiKey: ann!.user.api_key })),
            (client) => Effect.promise(() => client.close())
          )

          expect(yield* promise(() => lead.assignment.settings(dataset))).toMatchObject({
            assigned: "first", order: "inserted", lease_minutes: 30, blind: false, quota: null, min_submitted: 1, in_use: false
          })
          const updated = yield* promise(() => lead.assignment.updateSettings(dataset, { quota: 3 }))
          expect([updated.quota, updated.order, updated.lease_minutes]).toEqual([3, "inserted", 30])

          // A username, a user object: one record each, the least loaded first.
          const assigned = yield* promise(() =>
            lead.assignment.assign(dataset, {
              users: [ann!.user.username, bo!.user],
              recordIds: [0, 1, 2, 3].map(r),
              perRecord: 1
            })
          )
          expect(assigned).toEqual({ records: 4, assigned: 4 })
          const unknown = yield* Effect.flip(Effect.tryPromise({
            try: () => lead.assignment.assign(dataset, { users: ["nobody-here"] }),
            catch: (error) => error
          }))
          expect(unknown).toBeInstanceOf(UserNotFound)

          expect(yield* promise(() => lead.assignment.prioritize(dataset, { recordIds: [{ id: r(5) }], priority: 10 })))
            .toEqual({ records: 1 })

          // Ann's assigned records first, then the pool's highest priority, which the page reserves for her.
          const page = yield* promise(() => annotator.assignment.queue(dataset, { limit: 3 }))
          expect(page.items.map((item) => [item.record.id, item.reason, item.position, item.priority])).toEqual([
            [r(0), "assigned", 1, 0],
            [r(2), "assigned", 2, 0],
            [r(5), "pool", 3, 10]
          ])
          expect([page.total, page.assigned, page.pool, page.quota_left]).toEqual([4, 2, 2, 3])
          expect(page.items[2]?.lease_expires_at).not.toBeNull()

          const quotas = yield* promise(() => lead.assignment.setQuota(dataset, cy!.user.username, 1))
          expect(quotas.users.find((u) => u.user_id === cy!.user.id)?.quota).toBe(1)

          const summary = yield* promise(() => lead.assignment.summary(dataset))
          const row = (id: string) => summary.users.find((u) => u.user_id === id)
          expect([summary.records, summary.assigned_records]).toEqual([6, 4])
          const annRow = row(ann!.user.id)
          expect([annRow?.assigned, annRow?.leased, annRow?.pending]).toEqual([2, 1, 4])
          // Bo: two assigned, and record 4 from the pool (record 5 is Ann's while her lease lives).
          expect([row(bo!.user.id)?.assigned, row(bo!.user.id)?.pending]).toEqual([2, 3])

          expect(yield* promise(() => annotator.assignment.release(dataset))).toEqual({ released: 1 })

          // Ann leaves: her unanswered assignments go to Cy (named by id).
          expect(yield* promise(() => lead.assignment.move(dataset, { from: ann!.user.username, to: [cy!.user.id] })))
            .toEqual({ removed: 2, assigned: 2 })
          expect(yield* promise(() => lead.assignment.unassign(dataset, { users: [bo!.user.username] })))
            .toEqual({ removed: 2 })
          const after = yield* promise(() => lead.assignment.summary(dataset))
          expect(after.users.filter((u) => u.assigned > 0).map((u) => [u.user_id, u.assigned]))
            .toEqual([[cy!.user.id, 2]])
        }))
    })
  })
}

/**
 * Properties of the queue rules (src/services/assignment/queueOrder.ts) and of a group's share of assigned records
 * (distribute.ts) on generated datasets (fast-check): a queue never holds what its user answered, assigned records
 * come before the pool's, "only" has no pool, every pool record still needs an answer or is the user's own lease, a
 * quota is never exceeded, each part is ordered by priority then the dataset's order (the shuffle's FNV-1a hash
 * computed here again, apart from the server's); a group's records go to `per_record` distinct users each, and
 * users who start level stay within one record of each other.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { distribute } from "../../src/services/assignment/distribute.js"
import {
  type Candidate,
  makeQueue,
  type PoolState,
  type Queue,
  type QueueRules,
  type UserState
} from "../../src/services/assignment/queueOrder.js"

const USERS = ["u0", "u1", "u2", "u3"] as const
const ME = "u0"

/** FNV-1a, 32 bits, over the UTF-8 bytes: the documented key of the shuffled order, written again here. */
const fnv1a = (text: string) => {
  let hash = 0x811c9dc5
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash >>> 0
}

interface World {
  readonly pool: PoolState
  readonly user: UserState
  readonly rules: QueueRules
  readonly byId: ReadonlyMap<string, Candidate>
}

/** One record as generated: where it stands (pool, assigned to the user, assigned to someone else) and who holds it. */
const recordArb = fc.record({
  place: fc.constantFrom("pool", "pool", "mine", "theirs"),
  priority: fc.constantFrom(-1, 0, 0, 0, 2, 5),
  answeredByMe: fc.boolean(),
  // Others' answers (submitted or drafts) and live leases on it.
  othersAnswered: fc.subarray(["u1", "u2", "u3"]),
  othersLeased: fc.subarray(["u1", "u2", "u3"]),
  leasedByMe: fc.boolean(),
  myAnswerCounts: fc.boolean()
})

const worldArb: fc.Arbitrary<World> = fc.record({
  records: fc.array(recordArb, { maxLength: 24 }),
  // Insertion order is not the order of the ids.
  seqs: fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 24, maxLength: 24 }),
  assigned: fc.constantFrom("first" as const, "only" as const),
  order: fc.constantFrom("inserted" as const, "shuffled" as const),
  minSubmitted: fc.integer({ min: 1, max: 4 }),
  quota: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined })
}).map(({ assigned, minSubmitted, order, quota, records, seqs }) => {
  const candidates = records.map((r, i): Candidate => ({ id: `rec-${i}`, seq: seqs[i]! + i * 1_000_001, priority: r.priority }))
  const pool: Array<Candidate> = []
  const mine: Array<Candidate> = []
  const answered = new Set<string>()
  const answeredBy = new Map<string, Array<string>>()
  const leasedBy = new Map<string, Array<string>>()
  records.forEach((r, i) => {
    const c = candidates[i]!
    if (r.answeredByMe) answered.add(c.id)
    if (r.place === "mine") mine.push(c)
    if (r.place !== "pool") return
    pool.push(c)
    // A submitted answer or a draft of the user is a claim too; a discarded one is an answer only.
    const by = [...r.othersAnswered, ...(r.answeredByMe && r.myAnswerCounts ? [ME] : [])]
    if (by.length > 0) answeredBy.set(c.id, by)
    // Leases of users who answered the record are not read (the repository leaves them out).
    const leasers = [...r.othersLeased.filter((u) => !r.othersAnswered.includes(u)), ...(r.leasedByMe && !r.answeredByMe ? [ME] : [])]
    if (leasers.length > 0) leasedBy.set(c.id, leasers)
  })
  return {
    pool: { pool, answeredBy, leasedBy },
    user: { userId: ME, assigned: mine, answered },
    rules: { assigned, order, minSubmitted, quota },
    byId: new Map(candidates.map((c) => [c.id, c]))
  }
})

const keyOf = (world: World, id: string) =>
  world.rules.order === "shuffled" ? fnv1a(`${ME}:${id}`) : world.byId.get(id)!.seq

const run = (world: World): Queue => makeQueue(world.pool, world.user, world.rules)

describe("makeQueue", () => {
  it("never holds a record its user answered, nor one twice", () =>
    fc.assert(fc.property(worldArb, (world) => {
      const ids = run(world).entries.map((e) => e.id)
      expect(ids.filter((id) => world.user.answered.has(id))).toEqual([])
      expect(new Set(ids).size).toBe(ids.length)
    })))

  it("holds every unanswered assigned record, before any pool record; the counts add up", () =>
    fc.assert(fc.property(worldArb, (world) => {
      const queue = run(world)
      const reasons = queue.entries.map((e) => e.reason)
      const firstPool = reasons.indexOf("pool")
      if (firstPool >= 0) expect(reasons.slice(firstPool).every((r) => r === "pool")).toBe(true)
      const wanted = world.user.assigned.filter((c) => !world.user.answered.has(c.id)).map((c) => c.id).sort()
      expect(queue.entries.filter((e) => e.reason === "assigned").map((e) => e.id).sort()).toEqual(wanted)
      expect(queue.assigned + queue.pool).toBe(queue.entries.length)
      expect(queue.assigned).toBe(wanted.length)
    })))

  it("has no pool in `only` mode", () =>
    fc.assert(fc.property(worldArb, (world) => {
      const queue = makeQueue(world.pool, world.user, { ...world.rules, assigned: "only" })
      expect(queue.pool).toBe(0)
      expect(queue.entries.every((e) => e.reason === "assigned")).toBe(true)
    })))

  it("takes from the pool only records fewer than min_submitted others claim, or that the user holds", () =>
    fc.assert(fc.property(worldArb, (world) => {
      const inPool = new Set(world.pool.pool.map((c) => c.id))
      for (const entry of run(world).entries.filter((e) => e.reason === "pool")) {
        expect(inPool.has(entry.id)).toBe(true)
        const leasers = world.pool.leasedBy.get(entry.id) ?? []
        const mine = leasers.includes(ME)
        expect(entry.leased).toBe(mine)
        if (mine) continue
        const claims = (world.pool.answeredBy.get(entry.id) ?? []).filter((u) => u !== ME).length + leasers.length
        expect(claims).toBeLessThan(world.rules.minSubmitted)
      }
    })))

  it("keeps every record that still needs an answer when there is no quota", () =>
    fc.assert(fc.property(worldArb.filter((w) => w.rules.quota === undefined && w.rules.assigned === "first"), (world) => {
      const assigned = new Set(world.user.assigned.map((c) => c.id))
      const wanted = world.pool.pool.filter((c) => {
        if (world.user.answered.has(c.id) || assigned.has(c.id)) return false
        const leasers = world.pool.leasedBy.get(c.id) ?? []
        return leasers.includes(ME) || (world.pool.answeredBy.get(c.id) ?? []).length + leasers.length < world.rules.minSubmitted
      }).map((c) => c.id).sort()
      expect(run(world).entries.filter((e) => e.reason === "pool").map((e) => e.id).sort()).toEqual(wanted)
    })))

  it("never takes more new pool records than the quota leaves", () =>
    fc.assert(fc.property(worldArb.filter((w) => w.rules.quota !== undefined && w.rules.assigned === "first"), (world) => {
      const queue = run(world)
      const quota = world.rules.quota!
      const assigned = new Set(world.user.assigned.map((c) => c.id))
      const answeredFromPool = [...world.user.answered].filter((id) => !assigned.has(id)).length
      const pool = queue.entries.filter((e) => e.reason === "pool")
      const held = pool.filter((e) => e.leased).length
      const fresh = pool.length - held
      expect(queue.quotaLeft).toBe(Math.max(0, quota - answeredFromPool - held))
      expect(fresh).toBeLessThanOrEqual(queue.quotaLeft!)
      // Unless the user held more than the quota before it was lowered, answered + held + new stays within it.
      if (answeredFromPool + held <= quota) expect(answeredFromPool + pool.length).toBeLessThanOrEqual(quota)
    })))

  it("orders each part by priority (higher first), then by the dataset's order", () =>
    fc.assert(fc.property(worldArb, (world) => {
      const entries = run(world).entries
      for (const reason of ["assigned", "pool"] as const) {
        const part = entries.filter((e) => e.reason === reason)
        for (let i = 1; i < part.length; i++) {
          const [a, b] = [part[i - 1]!, part[i]!]
          expect(a.priority).toBeGreaterThanOrEqual(b.priority)
          if (a.priority === b.priority) expect(keyOf(world, a.id)).toBeLessThanOrEqual(keyOf(world, b.id))
        }
      }
    })))

  it("gives two users different shuffles of the same records, each the same every time", () => {
    const records: Array<Candidate> = Array.from({ length: 30 }, (_, i) => ({ id: `rec-${i}`, seq: i, priority: 0 }))
    const pool: PoolState = { pool: records, answeredBy: new Map(), leasedBy: new Map() }
    const rules: QueueRules = { assigned: "first", order: "shuffled", minSubmitted: 1, quota: undefined }
    const of = (userId: string) => makeQueue(pool, { userId, assigned: [], answered: new Set() }, rules).entries.map((e) => e.id)
    expect(of("a")).toEqual(of("a"))
    expect(of("a")).not.toEqual(of("b"))
    expect(of("a")).toEqual([...records].sort((x, y) => fnv1a(`a:${x.id}`) - fnv1a(`a:${y.id}`)).map((r) => r.id))
  })
})

describe("distribute", () => {
  const groupArb = fc.record({
    records: fc.integer({ min: 0, max: 40 }),
    users: fc.integer({ min: 1, max: 6 }),
    perRecord: fc.integer({ min: 1, max: 8 }),
    start: fc.integer({ min: 0, max: 5 })
  })

  it("gives each record min(per_record, group) distinct users of the group; loads that start level end within one", () =>
    fc.assert(fc.property(groupArb, ({ perRecord, records, start, users }) => {
      const recordIds = Array.from({ length: records }, (_, i) => `rec-${i}`)
      const group = Array.from({ length: users }, (_, i) => USERS[i] ?? `u${i}`)
      const load = new Map(group.map((u) => [u, start]))
      const { pairs } = distribute(recordIds, group, perRecord, load, new Map())
      const byRecord = new Map<string, Array<string>>()
      for (const [record, user] of pairs) byRecord.set(record, [...(byRecord.get(record) ?? []), user])
      for (const id of recordIds) {
        const got = byRecord.get(id) ?? []
        expect(got.length).toBe(Math.min(perRecord, users))
        expect(new Set(got).size).toBe(got.length)
        expect(got.every((u) => group.includes(u))).toBe(true)
      }
      const counts = group.map((u) => pairs.filter(([, user]) => user === u).length)
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1)
    })))

  it("never gives a user a record they have, and tops a record up to per_record", () =>
    fc.assert(fc.property(
      groupArb,
      fc.array(fc.tuple(fc.integer({ min: 0, max: 39 }), fc.integer({ min: 0, max: 5 })), { maxLength: 30 }),
      fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 6, maxLength: 6 }),
      ({ perRecord, records, users }, had, loads) => {
        const recordIds = Array.from({ length: records }, (_, i) => `rec-${i}`)
        const group = Array.from({ length: users }, (_, i) => `u${i}`)
        const existing = new Map<string, Set<string>>()
        for (const [r, u] of had) {
          if (r >= records) continue
          const set = existing.get(`rec-${r}`) ?? new Set<string>()
          set.add(`u${u}`)
          existing.set(`rec-${r}`, set)
        }
        const { pairs } = distribute(recordIds, group, perRecord, new Map(group.map((u, i) => [u, loads[i]!])), existing)
        const seen = new Set<string>()
        for (const [record, user] of pairs) {
          expect(existing.get(record)?.has(user) ?? false).toBe(false)
          expect(seen.has(`${record}|${user}`)).toBe(false)
          seen.add(`${record}|${user}`)
        }
        for (const id of recordIds) {
          const before = group.filter((u) => existing.get(id)?.has(u) === true).length
          const added = pairs.filter(([r]) => r === id).length
          expect(before + added).toBe(Math.max(before, Math.min(perRecord, users)))
        }
      }
    )))
})

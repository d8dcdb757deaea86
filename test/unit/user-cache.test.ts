import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Ref, TestClock } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { UserId } from "../../src/domain/Ids.js"
import type { User } from "../../src/domain/User.js"
import { UserCache } from "../../src/services/users/UserCache.js"

const user: User = {
  id: UserId.make("3f1d2c8e-4c5b-4f7a-9d2e-1a2b3c4d5e6f"),
  first_name: "a",
  last_name: null,
  username: "a",
  role: "admin",
  api_key: "k",
  inserted_at: new Date(0),
  updated_at: new Date(0)
}

const cacheWith = (env: Record<string, string>) => UserCache.Default.pipe(Layer.provide(GlossConfig.fromRecord(env)))

/** A lookup that counts how often the database would have been asked. */
const countingLookup = Effect.map(Ref.make(0), (calls) => ({
  calls,
  lookup: Effect.as(Ref.update(calls, (n) => n + 1), Option.some(user))
}))

describe("UserCache", () => {
  it.effect("answers from memory for GLOSS_AUTH_CACHE_SECONDS, then asks again", () =>
    Effect.gen(function*() {
      const cache = yield* UserCache
      const { calls, lookup } = yield* countingLookup
      expect(yield* cache.through("key:k", lookup)).toEqual(Option.some(user))
      yield* cache.through("key:k", lookup)
      expect(yield* Ref.get(calls)).toBe(1)
      yield* TestClock.adjust("2001 millis")
      yield* cache.through("key:k", lookup)
      expect(yield* Ref.get(calls)).toBe(2)
    }).pipe(Effect.provide(cacheWith({}))))

  it.effect("invalidate drops everything; unknown credentials are never cached", () =>
    Effect.gen(function*() {
      const cache = yield* UserCache
      const { calls, lookup } = yield* countingLookup
      yield* cache.through("key:k", lookup)
      yield* cache.invalidate
      yield* cache.through("key:k", lookup)
      expect(yield* Ref.get(calls)).toBe(2)
      const missing = Effect.as(Ref.update(calls, (n) => n + 1), Option.none<User>())
      yield* cache.through("key:nobody", missing)
      yield* cache.through("key:nobody", missing)
      expect(yield* Ref.get(calls)).toBe(4)
    }).pipe(Effect.provide(cacheWith({}))))

  it.effect("GLOSS_AUTH_CACHE_SECONDS=0 turns it off", () =>
    Effect.gen(function*() {
      const cache = yield* UserCache
      const { calls, lookup } = yield* countingLookup
      yield* cache.through("key:k", lookup)
      yield* cache.through("key:k", lookup)
      expect(yield* Ref.get(calls)).toBe(2)
    }).pipe(Effect.provide(cacheWith({ GLOSS_AUTH_CACHE_SECONDS: "0" }))))
})

/**
 * A short-lived, in-process cache of who a credential belongs to. Every authenticated request needs its user; at
 * a few thousand requests a second the database round trip (and @effect/sql's per-query machinery) was a large share
 * of the cost of `GET /me` (`npm run bench -- me`). Entries live `GLOSS_AUTH_CACHE_SECONDS` (default 2; 0 turns the
 * cache off) and are dropped at once when this process changes or deletes a user. Another instance may therefore honour
 * a changed role or a deleted user's key for at most that long.
 */
import { Clock, Effect, type Option } from "effect"
import { GlossConfig } from "../../Config.js"
import type { User } from "../../domain/User.js"

const MAX_ENTRIES = 10_000

export class UserCache extends Effect.Service<UserCache>()("Gloss/UserCache", {
  effect: Effect.gen(function*() {
    const { auth } = yield* GlossConfig
    const ttlMillis = auth.cacheSeconds * 1000
    const entries = new Map<string, { readonly user: User; readonly until: number }>()

    /** The cached user for `credential`, else the result of `lookup` (cached when found). */
    const through = <E, R>(
      credential: string,
      lookup: Effect.Effect<Option.Option<User>, E, R>
    ): Effect.Effect<Option.Option<User>, E, R> => {
      if (ttlMillis === 0) return lookup
      return Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const hit = entries.get(credential)
        if (hit !== undefined && hit.until > now) return Effect.succeedSome(hit.user)
        return Effect.tap(lookup, (found) =>
          Effect.sync(() => {
            if (found._tag === "None") return
            if (entries.size >= MAX_ENTRIES) entries.clear()
            entries.set(credential, { user: found.value, until: now + ttlMillis })
          }))
      })
    }

    /** Called whenever a user changes or disappears: nothing cached may outlive that in this process. */
    const invalidate = Effect.sync(() => entries.clear())

    return { through, invalidate } as const
  })
}) {}

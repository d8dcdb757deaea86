/**
 * ioredis connections for BullMQ, standalone or cluster (GLOSS_REDIS_USE_CLUSTER). Connecting is explicit
 * (`lazyConnect`) so an unreachable Redis fails start-up with one clear message instead of retrying forever;
 * once connected, ioredis reconnects by itself and its errors are logged, not thrown.
 */
import { Cluster, Redis } from "ioredis"
import { Data, Effect, Redacted, Runtime, type Scope } from "effect"

export class RedisUnavailable extends Data.TaggedError("RedisUnavailable")<{
  readonly url: string
  readonly cluster: boolean
  readonly cause: unknown
}> {
  override get message() {
    const reason = this.cause instanceof Error ? this.cause.message : String(this.cause)
    return `Redis${this.cluster ? " Cluster" : ""} at ${this.url} is unreachable (${reason}). ` +
      "Check GLOSS_REDIS_URL and GLOSS_REDIS_USE_CLUSTER, or unset GLOSS_REDIS_URL to use the embedded job queue."
  }
}

export type RedisClient = Redis | Cluster

/**
 * `commands`: enqueue and status lookups fail fast while Redis is down (the request errors instead of hanging).
 * `workers`: commands wait for the reconnection, and BullMQ requires `maxRetriesPerRequest: null` for them.
 */
export type Purpose = "commands" | "workers"

/** The URL with its password hidden, for messages. */
const shown = (url: URL): string => {
  const copy = new URL(url.href)
  if (copy.password !== "") copy.password = "***"
  return copy.href
}

const make = (url: Redacted.Redacted<string>, cluster: boolean, purpose: Purpose): RedisClient => {
  const options = {
    lazyConnect: true,
    connectTimeout: 5_000,
    maxRetriesPerRequest: purpose === "workers" ? null : 2,
    enableOfflineQueue: purpose === "workers"
  }
  if (!cluster) return new Redis(Redacted.value(url), options)
  // A cluster URL names one node; the client learns the others from it.
  const seed = new URL(Redacted.value(url))
  return new Cluster([{ host: seed.hostname, port: Number(seed.port === "" ? 6379 : seed.port) }], {
    lazyConnect: true,
    enableOfflineQueue: options.enableOfflineQueue,
    // ioredis gives the slot map (a connection of its own, then CLUSTER SLOTS) 1 s by default: a process busy
    // starting on a loaded machine misses that, and then refuses a healthy cluster as unreachable.
    slotsRefreshTimeout: options.connectTimeout,
    redisOptions: {
      connectTimeout: options.connectTimeout,
      maxRetriesPerRequest: options.maxRetriesPerRequest,
      ...(seed.username === "" ? {} : { username: decodeURIComponent(seed.username) }),
      ...(seed.password === "" ? {} : { password: decodeURIComponent(seed.password) }),
      ...(seed.protocol === "rediss:" ? { tls: {} } : {})
    }
  })
}

/** A connected client, closed (QUIT, then a hard disconnect if that hangs) with the scope. */
export const connectRedis = (
  url: Redacted.Redacted<string>,
  cluster: boolean,
  purpose: Purpose
): Effect.Effect<RedisClient, RedisUnavailable, Scope.Scope> =>
  Effect.gen(function*() {
    const runtime = yield* Effect.runtime<never>()
    // Until connected, a failure is reported once, by RedisUnavailable, with the socket's error (connect() itself
    // only says "Connection is closed."); afterwards ioredis reconnects by itself and each error is logged.
    let connected = false
    let firstError: Error | undefined
    const onError = (error: Error) => {
      if (connected) Runtime.runFork(runtime)(Effect.logWarning(`Redis connection error (${purpose}): ${error.message}`))
      else firstError ??= error
    }
    return yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: async () => {
          const client = make(url, cluster, purpose)
          client.on("error", onError)
          try {
            await client.connect()
          } catch (error) {
            client.disconnect()
            throw error
          }
          connected = true
          return client
        },
        catch: (cause) => new RedisUnavailable({ url: shown(new URL(Redacted.value(url))), cluster, cause: firstError ?? cause })
      }),
      (client) =>
        Effect.tryPromise(() => Promise.all([new Promise((resolve) => client.once("end", resolve)), client.quit()])).pipe(
          Effect.timeout("2 seconds"),
          Effect.catchAll((error) =>
            Effect.zipRight(Effect.logDebug("Redis did not close cleanly; disconnecting", error), Effect.sync(() => client.disconnect()))
          )
        )
    )
  })

/**
 * GLOSS_REDIS_PREFIX: two deployments on one Redis, each with its own prefix, share no queue — a job enqueued by one
 * is run by its workers only, and the other's workers never see it.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer, Option, Ref, Schema } from "effect"
import { jobHandler } from "../../src/services/jobs/JobHandlers.js"
import { JobQueue } from "../../src/services/jobs/JobQueue.js"
import { keyPrefix } from "../../src/services/jobs/RedisQueue.js"
import { eventually, processLayer, removeRedisKeys, Suite, SuiteLive } from "./support/backends.js"
import { standaloneAvailable } from "./support/redis.js"
import { unique } from "../support/fixtures.js"

describe.skipIf(!standaloneAvailable)("GLOSS_REDIS_PREFIX", () => {
  layer(SuiteLive("redis"), { excludeTestServices: true, timeout: 120_000 })("two prefixes on one Redis", (it) => {
    it.scoped("each deployment's workers run its own jobs only", () =>
      Effect.gen(function*() {
        const suite = yield* Suite
        const ran = yield* Ref.make<ReadonlyArray<string>>([])
        const deployment = (name: string) =>
          Effect.gen(function*() {
            const prefix = unique(`deploy-${name}`)
            const env = { ...suite.env, GLOSS_REDIS_PREFIX: prefix }
            yield* Effect.addFinalizer(() => removeRedisKeys(env, { ...suite.settings, prefix }))
            const handlers = Effect.all([
              jobHandler("which", Schema.Unknown, () => Ref.update(ran, (names) => [...names, name]))
            ])
            const context = yield* Layer.build(processLayer({ ...suite, env }, handlers, 1))
            return { prefix, queue: yield* Effect.provide(JobQueue, context) }
          })
        const a = yield* deployment("a")
        const b = yield* deployment("b")
        expect(keyPrefix(suite.settings, Option.some(a.prefix))).toBe(`{${a.prefix}}`)
        const id = yield* a.queue.enqueue("default", "which", {})
        yield* eventually(a.queue.status(id), (status) => Option.contains(status, "finished"), "finished")
        // The other deployment's queue does not know the job, and its worker never ran it.
        expect(yield* b.queue.status(id)).toEqual(Option.none())
        expect(yield* Ref.get(ran)).toEqual(["a"])
      }))
  })
})

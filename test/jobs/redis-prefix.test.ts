/**
 * GLOSS_REDIS_PREFIX: two deployments on one Redis, each with its own prefix, share no queue — a job enqueued by one
 * is run by its workers only, and the other's workers never see it.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Option, Ref, Schema } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { configErrorLines } from "../../src/config/errors.js"
import { JobSettings } from "../../src/services/jobs/model.js"
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

const load = (env: Record<string, string>) =>
  GlossConfig.load.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))

describe("GLOSS_REDIS_PREFIX, read", () => {
  it.effect("unset, keys are under {gloss}; set, under {its value}; braces or spaces are refused", () =>
    Effect.gen(function*() {
      const defaults = JobSettings.defaultValue()
      expect(keyPrefix(defaults, (yield* load({})).redis.prefix)).toBe("{gloss}")
      expect(keyPrefix(defaults, (yield* load({ GLOSS_REDIS_PREFIX: "staging.eu-1" })).redis.prefix)).toBe("{staging.eu-1}")
      for (const bad of ["{x}", "two words", "x".repeat(65)]) {
        const error = yield* Effect.flip(load({ GLOSS_REDIS_PREFIX: bad }))
        expect(configErrorLines(error)).toEqual(["GLOSS_REDIS_PREFIX: expected 1 to 64 letters, digits, '.', '_', ':' or '-'"])
      }
    }))
})

/** Redis specifics: start-up against an unreachable Redis, and shutdown with a job still running. */
import * as net from "node:net"
import { describe, expect, it, layer } from "@effect/vitest"
import { Deferred, Effect, Exit, Layer, Option, Schema, Scope } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { Database, SqlLive } from "../../src/services/database/Database.js"
import { jobHandler, JobHandlers } from "../../src/services/jobs/JobHandlers.js"
import { JobQueue } from "../../src/services/jobs/JobQueue.js"
import { JobWorkersLive } from "../../src/services/jobs/JobWorkers.js"
import { RedisUnavailable } from "../../src/services/jobs/RedisConnection.js"
import { SqlJobsRepo } from "../../src/services/jobs/SqlJobsRepo.js"
import { freshDatabase } from "../support/databases.js"
import { eventually, startProcess, SuiteLive } from "./support/backends.js"
import { standaloneAvailable } from "./support/redis.js"

/** A loopback port nothing listens on. */
const closedPort = Effect.promise(() =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 1))
    })
  })
)

const buildFailure = <A, E>(layer: Layer.Layer<A, E, GlossConfig>, env: Record<string, string>) =>
  Layer.build(layer).pipe(Effect.provide(GlossConfig.fromRecord(env)), Effect.scoped, Effect.flip)

const queueLayer = JobQueue.Default.pipe(Layer.provide(Database.Default), Layer.provide(SqlLive))
const workersLayer = JobWorkersLive(2).pipe(
  Layer.provide(JobHandlers.layer(Effect.succeed([]))),
  Layer.provide(SqlJobsRepo.Default),
  Layer.provide(Database.Default),
  Layer.provide(SqlLive)
)

describe("an unreachable Redis", () => {
  for (const cluster of [false, true]) {
    it.scopedLive(`fails the queue and the workers at start-up (${cluster ? "cluster" : "standalone"})`, () =>
      Effect.gen(function*() {
        const { env } = yield* freshDatabase("sqlite")
        const port = yield* closedPort
        const redisEnv = {
          ...env,
          GLOSS_REDIS_URL: `redis://gloss:s3cret@127.0.0.1:${port}`,
          GLOSS_REDIS_USE_CLUSTER: String(cluster)
        }
        for (const layer of [queueLayer, workersLayer]) {
          const error = yield* buildFailure(layer, redisEnv)
          expect(error).toBeInstanceOf(RedisUnavailable)
          const message = error instanceof RedisUnavailable ? error.message : ""
          expect(message).toContain(`redis://gloss:***@127.0.0.1:${port}`)
          expect(message).toContain("GLOSS_REDIS_URL")
          // The reason is the socket's, not ioredis's generic "Connection is closed."
          expect(message).toMatch(cluster ? /unreachable \(.+\)/ : /ECONNREFUSED/)
          expect(message).not.toContain("s3cret")
        }
      }))
  }
})

describe.skipIf(!standaloneAvailable)("redis", () => {
  layer(SuiteLive("redis"), { excludeTestServices: true, timeout: 60_000 })("shutdown", (it) => {
    it.scoped("a job still running after the grace period is interrupted; BullMQ counts that attempt", () =>
      Effect.gen(function*() {
        const started = yield* Deferred.make<void>()
        const handlers = Effect.all([
          jobHandler("never-ends", Schema.Unknown, () => Effect.zipRight(Deferred.succeed(started, undefined), Effect.never))
        ])
        const { queue } = yield* startProcess(handlers, 0)
        const scope = yield* Scope.make()
        yield* startProcess(handlers, 1, scope)
        const id = yield* queue.enqueue("default", "never-ends", {}, { attempts: 2, backoff: "1 hour" })
        yield* Deferred.await(started)
        yield* Scope.close(scope, Exit.void)
        yield* eventually(queue.status(id), (status) => Option.contains(status, "scheduled"), "scheduled")
      }))
  })
})

/** The queue-independent rules: back-off arithmetic, status names, and what one attempt decides. */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Duration, Effect, Exit, Layer, Logger, LogLevel, Option, Schema } from "effect"
import { jobHandler, JobHandlers, UnrecoverableJobError } from "../../src/services/jobs/JobHandlers.js"
import { JobSettings, retryDelayMillis, retryPolicy } from "../../src/services/jobs/model.js"
import { statusOfState } from "../../src/services/jobs/RedisQueue.js"
import { type Attempt, runJob } from "../../src/services/jobs/runJob.js"

const quiet = Logger.minimumLogLevel(LogLevel.None)

describe("back-off", () => {
  it("doubles the base delay for each retry", () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMillis(100, attempt))).toEqual([100, 200, 400, 800])
    expect(retryDelayMillis(0, 3)).toBe(0)
  })

  it("defaults to the settings, and never allows fewer than one attempt", () => {
    const settings = JobSettings.defaultValue()
    expect(retryPolicy(settings, undefined)).toEqual({ attempts: 4, backoffMillis: 1000, delayMillis: 0 })
    expect(retryPolicy(settings, { attempts: 2, backoff: "250 millis" })).toEqual({ attempts: 2, backoffMillis: 250, delayMillis: 0 })
    expect(retryPolicy(settings, { attempts: 0, backoff: Duration.seconds(2) })).toEqual({ attempts: 1, backoffMillis: 2000, delayMillis: 0 })
  })

  it("a delay postpones the first run (a retry handed over by a burst delivery); never below zero", () => {
    const settings = JobSettings.defaultValue()
    expect(retryPolicy(settings, { delay: "300 millis" }).delayMillis).toBe(300)
    expect(retryPolicy(settings, { delay: Duration.millis(-5) }).delayMillis).toBe(0)
  })
})

describe("BullMQ states in the contract's words", () => {
  it("maps every state, and an unknown job to none", () => {
    const states = ["waiting", "prioritized", "waiting-children", "delayed", "active", "completed", "failed"] as const
    expect(states.map((state) => Option.getOrNull(statusOfState(state)))).toEqual(
      ["queued", "queued", "deferred", "scheduled", "started", "finished", "failed"]
    )
    expect(statusOfState("unknown")).toEqual(Option.none())
  })
})

describe("one attempt", () => {
  const handlers = Effect.all([
    jobHandler("ok", Schema.Struct({ n: Schema.Number }), () => Effect.void),
    jobHandler("fails", Schema.Unknown, () => Effect.fail("boom")),
    jobHandler("dies", Schema.Unknown, () => Effect.die(new Error("bug"))),
    jobHandler("gives-up", Schema.Unknown, () => new UnrecoverableJobError({ message: "never" }))
  ])
  const attempt = (name: string, payload: unknown, n = 1, max = 3): Attempt =>
    ({ id: "job-1", name, payload, attempt: n, maxAttempts: max })
  const outcome = (job: Attempt) =>
    Effect.flatMap(JobHandlers, (registry) => runJob(registry, job)).pipe(
      Effect.provide(JobHandlers.layer(handlers)),
      Effect.provide(quiet)
    )

  it.effect("succeeds, or fails with a decision to retry and the error's text", () =>
    Effect.gen(function*() {
      expect(yield* outcome(attempt("ok", { n: 1 }))).toEqual({ _tag: "Succeeded" })
      const failed = yield* outcome(attempt("fails", null))
      expect(failed).toMatchObject({ _tag: "Failed", retry: true })
      expect(failed._tag === "Failed" ? failed.error : "").toContain("boom")
      expect(yield* outcome(attempt("dies", null))).toMatchObject({ _tag: "Failed", retry: true })
      // A job nobody handles may reach a process that knows it later (rolling deploys): retry.
      expect(yield* outcome(attempt("unknown", null))).toMatchObject({ _tag: "Failed", retry: true })
    }))

  it.effect("does not retry the last attempt, an invalid payload, or an unrecoverable error", () =>
    Effect.gen(function*() {
      expect(yield* outcome(attempt("fails", null, 3, 3))).toMatchObject({ _tag: "Failed", retry: false })
      const invalid = yield* outcome(attempt("ok", { n: "one" }))
      expect(invalid).toMatchObject({ _tag: "Failed", retry: false })
      expect(invalid._tag === "Failed" ? invalid.error : "").toContain("invalid payload")
      expect(yield* outcome(attempt("gives-up", null))).toMatchObject({ _tag: "Failed", retry: false })
    }))

  it.effect("refuses two handlers with one name", () =>
    Effect.gen(function*() {
      const twice = Effect.all([jobHandler("same", Schema.Unknown, () => Effect.void), jobHandler("same", Schema.Unknown, () => Effect.void)])
      const exit = yield* Effect.exit(Layer.build(JobHandlers.layer(twice)).pipe(Effect.scoped))
      expect(Exit.isFailure(exit)).toBe(true)
      if (Exit.isFailure(exit)) expect(Cause.pretty(exit.cause)).toContain("Job handler names must be unique")
    }))
})

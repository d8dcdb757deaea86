import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Ref } from "effect"
import { failAfter } from "../../src/services/records/deadline.js"

const late = () => "late" as const

describe("failAfter (the search's time budget)", () => {
  it.live("gives the effect's value, or its failure, when it ends in time", () =>
    Effect.gen(function*() {
      expect(yield* failAfter(Effect.succeed(1), 1_000, late)).toBe(1)
      expect(yield* Effect.flip(failAfter(Effect.fail("boom"), 1_000, late))).toBe("boom")
      expect(yield* failAfter(Effect.as(Effect.sleep("5 millis"), 2), 1_000, late)).toBe(2)
    }))

  it.live("past the deadline: interrupts the effect, waits for it to end, then fails with onTimeout's error", () =>
    Effect.gen(function*() {
      const ended = yield* Ref.make(false)
      const slow = Effect.never.pipe(Effect.onInterrupt(() => Effect.zipRight(Effect.sleep("20 millis"), Ref.set(ended, true))))
      const error = yield* Effect.flip(failAfter(slow, 10, late))
      expect(error).toBe("late")
      // Its clean-up had finished before the error came back.
      expect(yield* Ref.get(ended)).toBe(true)
    }))

  it.live("a caller that is interrupted interrupts the effect", () =>
    Effect.gen(function*() {
      const started = yield* Deferred.make<void>()
      const interrupted = yield* Deferred.make<void>()
      const work = Effect.zipRight(Deferred.succeed(started, undefined), Effect.never).pipe(
        Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined))
      )
      const caller = yield* Effect.fork(failAfter(work, 60_000, late))
      yield* Deferred.await(started)
      const exit = yield* Fiber.interrupt(caller)
      expect(Exit.isInterrupted(exit)).toBe(true)
      expect(yield* Deferred.isDone(interrupted)).toBe(true)
    }))

  it.live("a defect in the effect stays a defect", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(failAfter(Effect.die(new Error("broken")), 1_000, late))
      expect(Exit.isFailure(exit) && Exit.causeOption(exit)._tag === "Some").toBe(true)
      expect(String(Exit.isFailure(exit) ? exit.cause : "")).toContain("broken")
    }))
})

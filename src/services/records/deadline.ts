/**
 * `Effect.timeoutFail` for a search, the one timeout on every search request's path, made cheaper.
 *
 * `timeoutFail` races the effect against a sleep: two forked fibers, and the winner's fiber refs joined back into
 * the caller's, which compares the whole request context service by service. On a small dataset's text search with
 * a metadata range that was about a tenth of the server's CPU a request (`npm run bench -- compare 696334a small`).
 * Here the effect runs in one forked fiber, a timer waits beside it, and its exit is taken as it is, without joining
 * its fiber refs: a search changes none its caller reads.
 *
 * Past the deadline the effect is interrupted (and waited for) before `onTimeout`'s error is returned, as with
 * `timeoutFail`; an interrupted caller interrupts the effect too. The deadline is the machine's clock (a timer), not
 * Effect's `Clock`: a test's TestClock does not move it.
 */
import { Duration, Effect, Fiber } from "effect"

export const failAfter = <A, E, R, E2>(
  effect: Effect.Effect<A, E, R>,
  duration: Duration.DurationInput,
  onTimeout: () => E2
): Effect.Effect<A, E | E2, R> =>
  Effect.uninterruptibleMask((restore) =>
    Effect.flatMap(Effect.fork(restore(effect)), (fiber) =>
      restore(
        Effect.async<A, E | E2>((resume) => {
          let done = false
          const finish = (result: Effect.Effect<A, E | E2>) => {
            if (done) return
            done = true
            clearTimeout(timer)
            resume(result)
          }
          const timer = setTimeout(() => finish(Effect.zipRight(Fiber.interrupt(fiber), Effect.fail(onTimeout()))), Duration.toMillis(duration))
          // Called at once when the fiber has already ended.
          fiber.addObserver(finish)
          return Effect.sync(() => {
            done = true
            clearTimeout(timer)
            fiber.removeObserver(finish)
          })
        })
      ).pipe(Effect.onInterrupt(() => Fiber.interrupt(fiber)))
    )
  )

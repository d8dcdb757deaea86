import { SqlClient } from "@effect/sql"
import { Duration, Effect } from "effect"
import type { Readiness } from "./domain/Health.js"
import { JobQueue } from "./services/jobs/JobQueue.js"
import { SearchEngine } from "./services/search/SearchEngine.js"

const PROBE_TIMEOUT = Duration.seconds(3)

/** Runs a probe with a time limit; a failure or a defect becomes `down` with a one-line reason. */
const probe = <A, E, R>(check: Effect.Effect<A, E, R>) =>
  check.pipe(
    Effect.timeoutFail({ duration: PROBE_TIMEOUT, onTimeout: () => "no answer within 3 s" }),
    Effect.as({ status: "ok" as const }),
    Effect.catchAllCause((cause) =>
      Effect.succeed({
        status: "down" as const,
        detail: (cause._tag === "Fail" && typeof cause.error === "string") ? cause.error : "not answering (see the server log)"
      }).pipe(Effect.tap(() => Effect.logWarning("Readiness probe failed", cause)))
    )
  )

export class Health extends Effect.Service<Health>()("Gloss/Health", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const engine = yield* SearchEngine
    const jobs = yield* JobQueue

    const ready = Effect.fn("Health.ready")(function*() {
      const [database, search_engine, job_queue] = yield* Effect.all([
        probe(sql`select 1`),
        probe(engine.info),
        // Asking for a job that does not exist is a round trip to Redis or the jobs table, and nothing more.
        probe(jobs.status("health-probe"))
      ], { concurrency: "unbounded" })
      const status = [database, search_engine, job_queue].every((d) => d.status === "ok") ? "ok" as const : "down" as const
      return { status, database, search_engine, job_queue } satisfies Readiness
    })

    return { ready } as const
  }),
  dependencies: [JobQueue.Default]
}) {}

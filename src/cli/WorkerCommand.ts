import { Command, Options } from "@effect/cli"
import { Effect, Layer, Schema } from "effect"
import { GlossConfig } from "../Config.js"
import { Database, SqlLive } from "../services/database/Database.js"
import { runMigrations } from "../services/database/migrations.js"
import { AppJobWorkersLive } from "../Workers.js"
import { JobQueue } from "../services/jobs/JobQueue.js"
import { SearchEngineLive } from "../services/search/SearchEngineLive.js"
import { OutboxDispatcherLive } from "../services/webhooks/Dispatcher.js"
import { TracingLive } from "../Tracing.js"

const numWorkers = Options.integer("num-workers").pipe(
  Options.withAlias("n"),
  Options.withSchema(Schema.Int.pipe(Schema.between(1, 64))),
  Options.withDefault(2),
  Options.withDescription("How many jobs this process runs at once (1–64)")
)

/** A worker may start before any server: it brings the database up to date like the server does. */
const MigrationsLive = Layer.effectDiscard(Effect.gen(function*() {
  const applied = yield* runMigrations
  if (applied.length > 0) yield* Effect.logInfo(`Applied ${applied.length} database migration(s)`)
}))

/**
 * A process that only runs background jobs, for as long as it is not stopped (SIGTERM/SIGINT stop it: running
 * jobs get a grace period, then are handed back to the queue).
 */
export const WorkerProcessLive = (concurrency: number) =>
  // The outbox dispatcher runs here too: events and follow-up jobs reach the queue even with no server running.
  Layer.merge(AppJobWorkersLive(concurrency), OutboxDispatcherLive).pipe(
    // Handlers may enqueue follow-up jobs.
    Layer.provide(JobQueue.Default),
    // The status recomputation re-indexes records.
    Layer.provide(SearchEngineLive),
    Layer.provide(MigrationsLive),
    Layer.provide(Database.Default),
    Layer.provide(SqlLive),
    // Jobs, their SQL and search calls are traced like the server's requests when OTEL_EXPORTER_OTLP_ENDPOINT is set.
    Layer.provide(TracingLive)
  )

export const workerCommand = Command.make(
  "worker",
  { numWorkers },
  ({ numWorkers }) => Layer.launch(WorkerProcessLive(numWorkers).pipe(Layer.provide(GlossConfig.layer)))
).pipe(
  Command.withDescription(
    "Run background jobs (webhook deliveries, record status updates, imports) until stopped. Uses the same " +
      "configuration as `gloss server`: with GLOSS_REDIS_URL set, jobs come from Redis (standalone, or a cluster " +
      "with GLOSS_REDIS_USE_CLUSTER=true); otherwise from the embedded queue in the database at " +
      "GLOSS_DATABASE_URL, which other processes can share only on PostgreSQL or the same machine's SQLite file. " +
      "Run as many workers as you like; each job runs once at a time. The server also runs GLOSS_JOB_WORKERS " +
      "workers itself (0 turns them off)."
  )
)

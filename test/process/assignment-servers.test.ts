/**
 * Queues across servers: two `gloss server` processes on one database (PostgreSQL, and a SQLite file), eight
 * annotators drawing pages of five from one dataset's pool at once, each call going to the other server than the one
 * before. The reservation is taken behind the dataset's lock, which both servers take (PostgreSQL's advisory lock,
 * SQLite's writer lock), so no record gets more answers than `min_submitted` (2), every record ends with exactly 2,
 * and nobody is handed a record twice. One server in the test process is test/http/assignment-concurrency.test.ts.
 */
import { afterAll, describe, expect, it } from "vitest"
import { Effect, Exit, Scope } from "effect"
import { dialects, freshDatabase } from "../support/databases.js"
import { type GlossProcess, listening, spawnGloss, stop } from "../support/processes.js"
import { drawUntilEmpty, seedLoadDataset, submittedBy } from "../support/queueLoad.js"

const OWNER_KEY = "assignment.servers.owner.key.0123456789abcdefghijklmnopqrstuvwxyz"
const BASE = {
  GLOSS_HOST: "127.0.0.1",
  GLOSS_PORT: "0",
  // `listening` reads the address from the start-up line, logged at info.
  GLOSS_LOG_LEVEL: "info",
  HF_HUB_DISABLE_TELEMETRY: "1",
  GLOSS_AUTH_SECRET_KEY: "assignment-servers-secret-with-enough-entropy",
  // Eight annotators sign up and in: at bcrypt's cheapest cost that is not CPU the rest of the suite waits for.
  GLOSS_AUTH_PASSWORD_HASH_ROUNDS: "4",
  GLOSS_JOB_WORKERS: "0",
  USERNAME: "owner",
  PASSWORD: "owner-password",
  API_KEY: OWNER_KEY
}
const RECORDS = 60
const ANNOTATORS = 8
const MIN_SUBMITTED = 2

const scope = Effect.runSync(Scope.make())
const running: Array<GlossProcess> = []
afterAll(async () => {
  await Promise.all(running.map((proc) => stop(proc, "SIGKILL")))
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

// PostgreSQL where it answers (test/support/databases.ts says when it is skipped); SQLite always, two processes on
// one file, where the database's writer lock is the dataset's.
describe.each(dialects)("queues across two servers on one %s database", (dialect) => {
  it(`${ANNOTATORS} annotators over both servers: each record answered exactly ${MIN_SUBMITTED} times, nobody twice`, async () => {
    const db = await Effect.runPromise(Scope.extend(freshDatabase(dialect), scope))
    const mine: Array<GlossProcess> = []
    const start = async () => {
      const proc = spawnGloss(["server"], { ...BASE, ...db.env })
      running.push(proc)
      mine.push(proc)
      return listening(proc)
    }
    // One after the other: the first migrates the fresh database and creates the owner.
    const first = await start()
    const second = await start()
    const dataset = await seedLoadDataset(first, OWNER_KEY, { records: RECORDS, minSubmitted: MIN_SUBMITTED, annotators: ANNOTATORS })
    const outcome = await drawUntilEmpty([first, second], dataset, { pageSize: 5 })
    for (const drawn of outcome.drawn) expect(drawn.length - new Set(drawn).size).toBe(0)
    const by = await submittedBy(second, OWNER_KEY, dataset)
    expect([...by.values()].filter((users) => users.length > MIN_SUBMITTED)).toEqual([])
    expect(dataset.records.map((id) => by.get(id)?.length)).toEqual(dataset.records.map(() => MIN_SUBMITTED))
    expect(outcome.submitted.flat().length).toBe(RECORDS * MIN_SUBMITTED)
    expect(await Promise.all(mine.map((proc) => stop(proc)))).toEqual([0, 0])
  }, 300_000)
})

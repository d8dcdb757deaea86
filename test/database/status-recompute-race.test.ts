/**
 * Records' statuses while annotators answer and something else writes the same records: every record gets exactly
 * `MIN_SUBMITTED` answers at once, so afterwards every record must be completed.
 *
 * - The status job (`datasets.recompute_statuses`, run after a distribution change), again and again. On
 *   PostgreSQL an `update … set status = (select count(*) …)` that waits for a row another transaction holds
 *   re-checks that row when it is free but counts the responses as of its own start: before the job locked every
 *   record, an answer committed while it waited was missed and a completed record went back to pending for good
 *   (and a queue read then could hand it to a third annotator).
 * - Bulk upserts of the same records (new metadata), again and again: a record row read before an answer completed
 *   it was written back whole, status included, after.
 *
 * SQLite has one writer, so there the tests show the same rules hold. Both failed on PostgreSQL before their fixes (the
 * job in 3 runs of 4 at this size, the upserts every time).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Fiber, Layer, Ref } from "effect"
import type { DatasetId, RecordId } from "../../src/domain/Ids.js"
import type { User } from "../../src/domain/User.js"
import { Datasets } from "../../src/services/datasets/Datasets.js"
import { Fields } from "../../src/services/datasets/Fields.js"
import { Questions } from "../../src/services/datasets/Questions.js"
import { Ingest } from "../../src/services/records/ingest/Ingest.js"
import { RecordsRepo } from "../../src/services/records/RecordsRepo.js"
import { StatusRecomputation } from "../../src/services/records/RecomputeStatuses.js"
import { Responses } from "../../src/services/records/Responses.js"
import { Users } from "../../src/services/users/Users.js"
import { Workspaces } from "../../src/services/workspaces/Workspaces.js"
import { dialects } from "../support/databases.js"
import { servicesOnFreshDatabase } from "../support/services.js"

const RECORDS = 300
const ANNOTATORS = 8
const MIN_SUBMITTED = 2

const ServicesTest = (dialect: (typeof dialects)[number]) =>
  servicesOnFreshDatabase(
    dialect,
    Layer.mergeAll(
      Users.Default,
      Workspaces.Default,
      Datasets.Default,
      Fields.Default,
      Questions.Default,
      Ingest.Default,
      Responses.Default,
      StatusRecomputation.Default,
      RecordsRepo.Default
    ),
    { GLOSS_AUTH_PASSWORD_HASH_ROUNDS: "4" }
  )

/** A published dataset of `RECORDS` records wanting `MIN_SUBMITTED` answers each, its owner and `ANNOTATORS` owners. */
const setup = (name: string) =>
  Effect.gen(function*() {
    const users = yield* Users
    // Owners may answer in every workspace, so the annotators need no memberships.
    const people: Array<User> = yield* Effect.all(Array.from({ length: ANNOTATORS + 1 }, (_, i) =>
      users.createTrusted({ first_name: "Owner", username: `${name}-${i}`, role: "owner", password: "owner-password" })
    ))
    const [owner, ...annotators] = people as [User, ...Array<User>]
    const workspace = yield* (yield* Workspaces).createTrusted({ name })
    const datasets = yield* Datasets
    const dataset = yield* datasets.create(owner, { name, workspace_id: workspace.id })
    yield* (yield* Fields).create(owner, dataset.id, { name: "text", title: "Text", settings: { type: "text" } })
    yield* (yield* Questions).create(owner, dataset.id, {
      name: "label",
      title: "Label",
      required: true,
      settings: { type: "label_selection", options: [{ value: "a", text: "A" }, { value: "b", text: "B" }] }
    })
    yield* datasets.update(owner, dataset.id, { distribution: { strategy: "overlap", min_submitted: MIN_SUBMITTED } })
    yield* datasets.publish(owner, dataset.id)
    const created = yield* (yield* Ingest).upsert(owner, dataset.id, items(0))
    return { owner, annotators, datasetId: dataset.id, ids: created.items.map((item) => item.id as RecordId) }
  })

const items = (round: number) =>
  Array.from({ length: RECORDS }, (_, i) => ({ external_id: `r${i}`, fields: { text: `record ${i}` }, metadata: { round } }))

/**
 * Each record answered by two annotators (a pair that moves along), all at once, while `meanwhile` runs again and
 * again; then every record must be completed. `meanwhile` must have run at least once.
 */
const answerWhile = (
  { annotators, datasetId, ids }: { readonly annotators: ReadonlyArray<User>; readonly datasetId: DatasetId; readonly ids: ReadonlyArray<RecordId> },
  meanwhile: (round: number) => Effect.Effect<unknown, unknown>
) =>
  Effect.gen(function*() {
    const responses = yield* Responses
    const runs = yield* Ref.make(0)
    // A breath between runs: back to back, a bulk upsert of every record would hold SQLite's one writer lock nearly
    // all the time, and the answers (which wait for it) would take minutes.
    const other = yield* Effect.fork(Effect.forever(
      Effect.flatMap(Ref.updateAndGet(runs, (n) => n + 1), meanwhile).pipe(Effect.zipLeft(Effect.sleep("5 millis")))
    ))
    yield* Effect.all(
      ids.flatMap((id, r) =>
        Array.from({ length: MIN_SUBMITTED }, (_, k) =>
          responses.create(annotators[(r + k) % ANNOTATORS]!, id, {
            status: "submitted",
            values: { label: { value: k % 2 === 0 ? "a" : "b" } }
          }))
      ),
      { concurrency: 16, discard: true }
    )
    yield* Fiber.interrupt(other)
    expect(yield* Ref.get(runs)).toBeGreaterThan(0)
    const rows = yield* (yield* RecordsRepo).findByIds(datasetId, ids)
    expect(rows.filter((row) => row.status !== "completed").map((row) => row.id)).toEqual([])
  })

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(ServicesTest(dialect), { excludeTestServices: true, timeout: 60_000 })("statuses while answers come in", (it) => {
      it.effect(`the status job running meanwhile leaves every record answered ${MIN_SUBMITTED} times completed`, () =>
        Effect.gen(function*() {
          const world = yield* setup("job")
          const job = yield* StatusRecomputation
          yield* answerWhile(world, () => job.run(world.datasetId))
        }))

      it.effect(`bulk upserts of the same records meanwhile leave every record answered ${MIN_SUBMITTED} times completed`, () =>
        Effect.gen(function*() {
          const world = yield* setup("upsert")
          const ingest = yield* Ingest
          yield* answerWhile(world, (round) => ingest.upsert(world.owner, world.datasetId, items(round)))
        }))
    })
  })
}

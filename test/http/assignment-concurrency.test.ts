/**
 * Queues under load, on SQLite and PostgreSQL: eight annotators draw pages of five from the pool of one dataset at
 * the same moment (each page reserved), submit what they drew and draw again until their queues are empty. The
 * reservation is taken behind the dataset's lock, so no record gets more answers than the distribution's
 * `min_submitted` (2), every record ends with exactly 2, and nobody is handed a record twice. Several servers on
 * one PostgreSQL database are test/process/assignment-servers.test.ts.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { dialects } from "../support/databases.js"
import { drawUntilEmpty, seedLoadDataset, submittedBy } from "../support/queueLoad.js"
import { OWNER, TestServer, TestServerLive } from "../support/server.js"

const RECORDS = 60
const ANNOTATORS = 8
const MIN_SUBMITTED = 2
const PAGE = 5

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 120_000 })("queues under load", (it) => {
      it.effect(`${ANNOTATORS} annotators drawing at once: each record answered exactly ${MIN_SUBMITTED} times, nobody twice`, () =>
        Effect.gen(function*() {
          const { url } = yield* TestServer
          const dataset = yield* Effect.promise(() =>
            seedLoadDataset(url, OWNER.apiKey, { records: RECORDS, minSubmitted: MIN_SUBMITTED, annotators: ANNOTATORS })
          )
          const outcome = yield* Effect.promise(() => drawUntilEmpty([url], dataset, { pageSize: PAGE }))
          for (const drawn of outcome.drawn) expect(drawn.length - new Set(drawn).size).toBe(0)
          const by = yield* Effect.promise(() => submittedBy(url, OWNER.apiKey, dataset))
          expect([...by.values()].filter((users) => users.length > MIN_SUBMITTED)).toEqual([])
          expect(dataset.records.map((id) => by.get(id)?.length)).toEqual(dataset.records.map(() => MIN_SUBMITTED))
          expect(outcome.submitted.flat().length).toBe(RECORDS * MIN_SUBMITTED)
          // Everyone got a share: the pool was not handed to the first caller whole.
          expect(outcome.submitted.filter((s) => s.length === 0)).toEqual([])
        }), 180_000)
    })
  })
}

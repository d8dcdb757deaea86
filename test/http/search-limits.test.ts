/**
 * No search can stall the server: a search text is bounded (1 000 characters, 100 words: a 422 before any
 * database work, on every endpoint that takes one), a search that runs past GLOSS_SEARCH_TIMEOUT_SECONDS answers a
 * 503 in the contract's shape and its work stops, and so does the work of a search whose client went away.
 *
 * On PostgreSQL a search is made to wait for as long as the test likes by a lock on the text index, so that nothing
 * here depends on how fast the machine is: the test sees the search's query waiting in `pg_stat_activity`, then
 * sees it gone once the budget passed or the client left. On SQLite the searches run in worker threads, which
 * test/search/sqliteReader-interrupt.test.ts shows being stopped; here a search far heavier than its budget (100
 * common words ranked over every match, against a budget of a millisecond) answers the 503.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import pg from "pg"
import type { Dataset } from "../../src/domain/Dataset.js"
import { SEARCH_TEXT_MAX_CHARACTERS, SEARCH_TEXT_MAX_TERMS } from "../../src/domain/Search.js"
import { dialects } from "../support/databases.js"
import { datasetPath, publishedDataset, send } from "../support/datasets.js"
import { OWNER, TestServer, TestServerLive } from "../support/server.js"

type Validation = { detail: { code: string; params: { errors: Array<{ loc: Array<string | number>; msg: string }> } } }

/** 100 words every record says, so that a search for all of them ranks every record on all of them. */
const COMMON = Array.from({ length: SEARCH_TEXT_MAX_TERMS }, (_, i) => `word${i}`)

const withRecords = (count: number, text: (i: number) => string) =>
  Effect.gen(function*() {
    const dataset = yield* publishedDataset()
    for (let start = 0; start < count; start += 500) {
      const items = Array.from({ length: Math.min(500, count - start) }, (_, i) => ({
        external_id: `r${start + i}`,
        fields: { text: text(start + i) }
      }))
      expect((yield* send("POST", datasetPath(dataset, "/records/bulk"), { items })).status).toBe(201)
    }
    return dataset
  })

/** The three ways to send a search text: the caller's search, everyone's, and applying a response to the matches. */
const endpoints = (dataset: Dataset) => [
  { path: `/api/v1/me/datasets/${dataset.id}/records/search`, body: (q: string) => ({ query: { text: { q } } }), loc: ["query", "text", "q"] },
  { path: datasetPath(dataset, "/records/search"), body: (q: string) => ({ query: { text: { q } } }), loc: ["query", "text", "q"] },
  {
    path: `/api/v1/me/datasets/${dataset.id}/responses/apply`,
    body: (q: string) => ({ search: { query: { text: { q } } }, status: "submitted", values: { label: { value: "yes" } } }),
    loc: ["search", "query", "text", "q"]
  }
]

const expectTooLong = (response: { status: number; body: unknown }, loc: ReadonlyArray<string>, says: string) => {
  expect(response.status).toBe(422)
  const body = response.body as Validation
  expect(body.detail.code).toBe("argilla.api.errors::ValidationError")
  const error = body.detail.params.errors.find((e) => e.loc.slice(-loc.length).join(".") === loc.join("."))
  expect(error?.msg).toContain(says)
}

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect, { GLOSS_SEARCH_ENGINE: "database" }), { excludeTestServices: true, timeout: 60_000 })(
      "search text limits",
      (it) => {
        it.effect("a text over 1 000 characters or 100 words is a 422 naming it, on every endpoint that takes one", () =>
          Effect.gen(function*() {
            const dataset = yield* withRecords(3, (i) => `alpha beta ${i}`)
            const overLong = "a".repeat(SEARCH_TEXT_MAX_CHARACTERS + 1)
            const overWords = COMMON.concat("one more").join(" ")
            // A megabyte of words: it held a SQLite search worker for minutes, and failed on PostgreSQL with a 500
            // ("stack depth limit exceeded").
            const megabyte = "lorem ipsum dolor ".repeat(60_000)
            for (const endpoint of endpoints(dataset)) {
              expectTooLong(yield* send("POST", endpoint.path, endpoint.body(overLong)), endpoint.loc, "at most 1000 characters")
              expectTooLong(yield* send("POST", endpoint.path, endpoint.body(overWords)), endpoint.loc, "at most 100 words, this one has 102")
              expectTooLong(yield* send("POST", endpoint.path, endpoint.body(megabyte)), endpoint.loc, "at most 1000 characters")
            }
          }))

        it.effect("a text at the limits is searched; characters are counted as people count them", () =>
          Effect.gen(function*() {
            const dataset = yield* withRecords(3, (i) => `alpha beta ${i}`)
            const search = (q: string) => send("POST", datasetPath(dataset, "/records/search"), { query: { text: { q } } })
            // 100 words, 1 000 characters: the same word over and over finds what the word finds.
            const atLimit = "alpha ".repeat(SEARCH_TEXT_MAX_TERMS).padEnd(SEARCH_TEXT_MAX_CHARACTERS, ".")
            expect(atLimit).toHaveLength(SEARCH_TEXT_MAX_CHARACTERS)
            const found = yield* search(atLimit)
            expect(found.status).toBe(200)
            expect((found.body as { total: number }).total).toBe(3)
            // 1 000 emoji are 2 000 UTF-16 code units, and 1 000 characters.
            expect((yield* search("😀".repeat(SEARCH_TEXT_MAX_CHARACTERS))).status).toBe(200)
            expect((yield* search("😀".repeat(SEARCH_TEXT_MAX_CHARACTERS + 1))).status).toBe(422)
          }))
      }
    )
  })
}

/** A 503 in the contract's shape, saying why. */
const expectOverBudget = (response: { status: number; body: unknown }) => {
  expect(response.status).toBe(503)
  expect((response.body as { detail: string }).detail).toMatch(/^The search did not finish within [\d.]+ s and was stopped/)
}

describe("sqlite", () => {
  layer(
    TestServerLive("sqlite", { GLOSS_SEARCH_ENGINE: "database", GLOSS_SEARCH_TIMEOUT_SECONDS: "0.001", GLOSS_SEARCH_RANK_WINDOW: "0" }),
    { excludeTestServices: true, timeout: 60_000 }
  )("search time budget", (it) => {
    it.effect("a search past its budget answers a 503 in the contract's shape, and the server goes on", () =>
      Effect.gen(function*() {
        const dataset = yield* withRecords(1000, (i) => `${COMMON.join(" ")} ${i}`)
        expectOverBudget(yield* send("POST", datasetPath(dataset, "/records/search"), { query: { text: { q: COMMON.join(" ") } } }))
        expect((yield* send("GET", datasetPath(dataset))).status).toBe(200)
      }))
  })
})

/** A client of the test's PostgreSQL database, and how many of the server's queries wait for a lock there. */
const lockingClient = Effect.acquireRelease(
  Effect.flatMap(TestServer, ({ env }) =>
    Effect.promise(async () => {
      const client = new pg.Client({ connectionString: env.GLOSS_DATABASE_URL })
      await client.connect()
      return client
    })),
  (client) => Effect.promise(() => client.end())
)
const waitingForLocks = (client: pg.Client) =>
  Effect.promise(async () => {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`
    )
    return rows[0]?.n ?? 0
  })
/** Polls until `n` queries wait (at most ~10 s), and returns what it saw last: nothing timed is asserted. */
const poll = (client: pg.Client, n: number): Effect.Effect<number> =>
  Effect.gen(function*() {
    let seen = yield* waitingForLocks(client)
    for (let attempt = 0; attempt < 200 && seen !== n; attempt++) {
      yield* Effect.sleep("50 millis")
      seen = yield* waitingForLocks(client)
    }
    return seen
  })

/** Holds the text index's table locked (a search reads it; the dataset and its settings are read elsewhere). */
const lockTexts = (client: pg.Client) =>
  Effect.acquireRelease(
    Effect.promise(() => client.query("begin").then(() => client.query("lock table record_texts in access exclusive mode"))),
    () => Effect.promise(() => client.query("rollback"))
  )

if (dialects.includes("postgres")) {
  describe("postgres", () => {
    layer(TestServerLive("postgres", { GLOSS_SEARCH_ENGINE: "database", GLOSS_SEARCH_TIMEOUT_SECONDS: "1" }), {
      excludeTestServices: true,
      timeout: 60_000
    })("search time budget", (it) => {
      it.scoped("a search past its budget answers a 503, and its query is cancelled", () =>
        Effect.gen(function*() {
          const dataset = yield* withRecords(3, (i) => `alpha beta ${i}`)
          const client = yield* lockingClient
          yield* Effect.scoped(Effect.gen(function*() {
            yield* lockTexts(client)
            expectOverBudget(yield* send("POST", datasetPath(dataset, "/records/search"), { query: { text: { q: "alpha" } } }))
            // The query the search was waiting in no longer waits, though the lock is still held.
            expect(yield* poll(client, 0)).toBe(0)
          }))
          const after = yield* send("POST", datasetPath(dataset, "/records/search"), { query: { text: { q: "alpha" } } })
          expect(after.status).toBe(200)
          expect((after.body as { total: number }).total).toBe(3)
        }))
    })

    layer(TestServerLive("postgres", { GLOSS_SEARCH_ENGINE: "database", GLOSS_SEARCH_TIMEOUT_SECONDS: "600" }), {
      excludeTestServices: true,
      timeout: 60_000
    })("a client that goes away", (it) => {
      it.scoped("stops its search's query: the server interrupts the search when the connection closes", () =>
        Effect.gen(function*() {
          const dataset = yield* withRecords(3, (i) => `alpha beta ${i}`)
          const { url } = yield* TestServer
          const client = yield* lockingClient
          yield* lockTexts(client)
          const abort = new AbortController()
          const request = fetch(`${url}${datasetPath(dataset, "/records/search")}`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-gloss-api-key": OWNER.apiKey },
            body: JSON.stringify({ query: { text: { q: "alpha" } } }),
            signal: abort.signal
          }).then(() => "answered", () => "aborted")
          expect(yield* poll(client, 1)).toBe(1)
          abort.abort()
          expect(yield* Effect.promise(() => request)).toBe("aborted")
          // With the lock still held (for 600 s of budget), the query stopped waiting: it was cancelled.
          expect(yield* poll(client, 0)).toBe(0)
        }))
    })
  })
}

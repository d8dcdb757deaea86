/**
 * A page of search hits and how many there are, on the built-in engine.
 *
 * The total is exact up to `countUpTo` (`GLOSS_SEARCH_TRACK_TOTAL_HITS`, 0 for no bound) and a lower bound past it
 * (`gte`), as Elasticsearch answers with `track_total_hits`: at a million records a common word matches ~180 000 of
 * them, and counting them all (each one read and filtered) cost more than finding the page. The count stops at the
 * first match past the bound.
 */
import type { SqlClient, Statement } from "@effect/sql"
import { Effect, Schema } from "effect"
import { DbInt } from "../../../codecs/columns.js"
import { decodeHits, decodeRanked } from "../../../codecs/hitRows.js"
import type { SearchHits } from "../Query.js"
import type { OrderKey } from "./clauses.js"
import type { SearchReadsShape } from "./SearchReads.js"

const decodeCount = Schema.decodeUnknown(Schema.Array(Schema.Struct({ n: DbInt })))

/** How a page is read: see SearchReads. */
export type PageReads = Pick<SearchReadsShape, "read" | "readInTurn">

export interface PageQuery {
  /** `from` and `where` select the matches (records as `r`); `order` and `score` rank them. */
  readonly from: Statement.Fragment
  readonly where: Statement.Fragment
  readonly order: ReadonlyArray<OrderKey>
  readonly score: Statement.Fragment
  readonly limit: number
  readonly offset: number
  /** The total is exact up to this many matches, a lower bound past it; 0: always exact. */
  readonly countUpTo: number
  /** What to count, when cheaper than `from`: the text matches without their scores. */
  readonly count?: Statement.Fragment | undefined
}

/** Counts the rows `from … where` selects, up to `bound` + 1 (0: all of them): see `countedOf`. */
const countStatement = (sql: SqlClient.SqlClient, from: Statement.Fragment, where: Statement.Fragment, bound: number) =>
  sql`select count(*) as n from (select 1 from ${from} where ${where} ${bound > 0 ? sql`limit ${bound + 1}` : sql``}) c`

/** The total from `countStatement`'s rows: exact up to `bound` (0: no bound), a lower bound past it. */
const countedOf = (rows: ReadonlyArray<unknown>, bound: number) =>
  Effect.map(decodeCount(rows), ([row]) => {
    const n = row?.n ?? 0
    return bound > 0 && n > bound
      ? { total: bound, totalRelation: "gte" as const }
      : { total: n, totalRelation: "eq" as const }
  })

/** How many rows `from … where` selects: exact up to `bound` (0: no bound), a lower bound past it. */
export const countUpTo = (
  sql: SqlClient.SqlClient,
  reads: PageReads,
  from: Statement.Fragment,
  where: Statement.Fragment,
  bound: number
) => Effect.flatMap(reads.read(countStatement(sql, from, where, bound)), (rows) => countedOf(rows, bound))

type Counted = Effect.Effect.Success<ReturnType<typeof countUpTo>>

/** The page with its total; paged past the bound, there are at least as many as the pages so far show. */
const answer = (hits: SearchHits["hits"], offset: number, counted: Counted): SearchHits => {
  const seen = offset + hits.length
  return counted.totalRelation === "gte" && seen > counted.total
    ? { hits, total: seen, totalRelation: "gte" }
    : { hits, ...counted }
}

/** `order by` over the keys themselves (`r.…`, `m.…`), or over the columns `o0`, `o1`, … of `w` that hold them. */
const orderBy = (sql: SqlClient.SqlClient, order: ReadonlyArray<OrderKey>, projected: boolean) =>
  sql.csv(order.map(({ desc, key }, i) => {
    const expression = projected ? sql.unsafe(`w.o${i}`) : key
    return desc ? sql`${expression} desc` : expression
  }))

/**
 * The page and its total. With a bound on the count, one statement reads the first `countUpTo` + 1 matches that
 * pass the filters with their order's keys, counts them (`count(*) over ()`) and cuts the page from them: when there
 * are at most `countUpTo`, that is every match, and the page and its total are exact. Only past the bound is the
 * page ordered again from every match (`fullPage`); its total is then "at least the bound" without counting more. A
 * page and a separate count read every match twice: the count scanned the text's matches and filtered them again,
 * which made a text search with a metadata range on a small dataset cost a fifth more than one statement (`npm run
 * bench -- compare … small`).
 */
export const page = (sql: SqlClient.SqlClient, reads: PageReads, query: PageQuery) =>
  Effect.gen(function*() {
    const { countUpTo: bound, from, limit, offset, order, score, where } = query
    if (bound === 0) return yield* fullPage(sql, reads, query)
    const keys = sql.csv(order.map(({ key }, i) => sql`${key} as ${sql.unsafe(`o${i}`)}`))
    const rows = yield* decodeRanked(yield* reads.read(sql`select w.id, w.score, count(*) over () as n from (
        select r.id as id, ${score} as score, ${keys} from ${from} where ${where} limit ${bound + 1}) w
      order by ${orderBy(sql, order, true)} limit ${limit} offset ${offset}`))
    const passing = rows[0]?.n
    const hits = rows.map(({ id, score }) => ({ id, score }))
    // Nothing on the page: no match passes, or (past the start) the page is past the end, and then how far is counted.
    if (passing === undefined) return offset === 0 ? { hits, total: 0, totalRelation: "eq" } satisfies SearchHits : yield* fullPage(sql, reads, query)
    if (passing <= bound) return { hits, total: passing, totalRelation: "eq" } satisfies SearchHits
    const full = yield* Effect.flatMap(reads.read(pageStatement(sql, query)), decodeHits)
    return answer(full, offset, { total: bound, totalRelation: "gte" })
  })

/** The page ordered from every match. */
const pageStatement = (sql: SqlClient.SqlClient, query: PageQuery) =>
  sql`select r.id, ${query.score} as score from ${query.from} where ${query.where}
    order by ${orderBy(sql, query.order, false)} limit ${query.limit} offset ${query.offset}`

/**
 * The page ordered from every match, and its total, asked for in one go: on SQLite one call to the worker, which
 * counts only when the page was full (or empty past the start).
 */
const fullPage = (sql: SqlClient.SqlClient, reads: PageReads, query: PageQuery) =>
  Effect.gen(function*() {
    const { limit, offset } = query
    // A short page that is not past the end tells the total without counting.
    const short = { from: offset === 0 ? 0 : 1, to: limit - 1 }
    const [pageRows, countRows] = yield* reads.readInTurn([
      { statement: pageStatement(sql, query) },
      { statement: countStatement(sql, query.count ?? query.from, query.where, query.countUpTo), skipWhenPrevious: short }
    ])
    const hits = yield* decodeHits(pageRows ?? [])
    return countRows == null
      ? { hits, total: offset + hits.length, totalRelation: "eq" } satisfies SearchHits
      : answer(hits, offset, yield* countedOf(countRows, query.countUpTo))
  })

/** A text search ranked by relevance: `from` holds every text match, scored (`m.score`), joined to its record (`r`). */
export interface RankedQuery extends PageQuery {
  /** The records' insertion order: ties in score go the way they were added. */
  readonly sequence: Statement.Fragment
  /** How many matches that pass the filters are ranked (`GLOSS_SEARCH_RANK_WINDOW`, > 0). */
  readonly window: number
}

/**
 * A page of a text search ranked by relevance, in one statement: the first `window` + 1 matches that pass the
 * filters are read once, counted (`count(*) over ()`) and ranked, and the page is cut from them. Two statements
 * would read the same matches twice (tens of thousands of records for a common word at a million records), and a
 * window taken before the filters would rank only the share of it that a filter keeps.
 *
 * The window holds every match that passes when there are at most `window`: the ranking and the total are then
 * exact. Past that the page is the best of the window, and a page beyond the window is ranked from every match.
 */
export const rankedPage = (sql: SqlClient.SqlClient, reads: PageReads, query: RankedQuery) =>
  Effect.gen(function*() {
    const { from, where, score, sequence, limit, offset, window, countUpTo: bound } = query
    const rows = yield* decodeRanked(yield* reads.read(sql`select w.id, w.score, count(*) over () as n from (
        select r.id as id, ${score} as score, ${sequence} as seq from ${from} where ${where} limit ${window + 1}) w
      order by w.score desc, w.seq limit ${limit} offset ${offset}`))
    const passing = rows[0]?.n
    // Nothing on this page: no match passes (offset 0), or the page is past what the window holds.
    if (passing === undefined) return offset === 0 ? { hits: [], total: 0, totalRelation: "eq" } satisfies SearchHits : yield* fullPage(sql, reads, query)
    const hits = rows.map(({ id, score }) => ({ id, score }))
    const whole = passing <= window
    // Past the window's end (more matches than it holds): rank every match for this page.
    if (!whole && offset + limit > window) return yield* fullPage(sql, reads, query)
    // The window counted every match that passes when it held them all, and as far as the bound when that is smaller.
    const counted: Counted = whole
      ? bound > 0 && passing > bound ? { total: bound, totalRelation: "gte" as const } : { total: passing, totalRelation: "eq" as const }
      : bound > 0 && bound <= window
      ? { total: bound, totalRelation: "gte" as const }
      : yield* countUpTo(sql, reads, query.count ?? from, where, bound)
    return answer(hits, offset, counted)
  })

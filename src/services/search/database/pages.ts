/**
 * A page of search hits and how many there are, on the built-in engine.
 *
 * The total is exact up to `countUpTo` (`GLOSS_SEARCH_TRACK_TOTAL_HITS`, 0 for no bound) and a lower bound past it
 * (`gte`), as Elasticsearch answers with `track_total_hits`: at a million records a common word matches ~180 000 of
 * them, and counting them all (each one read and filtered) cost more than finding the page. The count stops at the
 * first match past the bound.
 */
import type { SqlClient, SqlError, Statement } from "@effect/sql"
import { Effect, Schema } from "effect"
import { DbInt } from "../../database/columns.js"
import { RecordId } from "../../../domain/Ids.js"
import type { SearchHits } from "../Query.js"

const decodeHits = Schema.decodeUnknown(Schema.Array(Schema.Struct({ id: RecordId, score: Schema.NullOr(Schema.Number) })))
const decodeCount = Schema.decodeUnknown(Schema.Array(Schema.Struct({ n: DbInt })))

export type Read = (statement: Statement.Statement<object>) => Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>

export interface PageQuery {
  /** `from` and `where` select the matches (records as `r`); `order` and `score` rank them. */
  readonly from: Statement.Fragment
  readonly where: Statement.Fragment
  readonly order: ReadonlyArray<Statement.Fragment>
  readonly score: Statement.Fragment
  readonly limit: number
  readonly offset: number
  /** The total is exact up to this many matches, a lower bound past it; 0: always exact. */
  readonly countUpTo: number
  /** What to count, when cheaper than `from`: the text matches without their scores. */
  readonly count?: Statement.Fragment | undefined
  /**
   * When `from` ranks only a window of the text matches (`GLOSS_SEARCH_RANK_WINDOW`): every match, scored, for a
   * page the window cannot fill although more records match.
   */
  readonly unwindowed?: Statement.Fragment | undefined
}

/** How many rows `from … where` selects: exact up to `bound` (0: no bound), a lower bound past it. */
export const countUpTo = (
  sql: SqlClient.SqlClient,
  read: Read,
  from: Statement.Fragment,
  where: Statement.Fragment,
  bound: number
) =>
  Effect.gen(function*() {
    const limited = bound > 0 ? sql`limit ${bound + 1}` : sql``
    const [row] = yield* decodeCount(yield* read(sql`select count(*) as n from (select 1 from ${from} where ${where} ${limited}) c`))
    const n = row?.n ?? 0
    return bound > 0 && n > bound
      ? { total: bound, totalRelation: "gte" as const }
      : { total: n, totalRelation: "eq" as const }
  })

export const page = (sql: SqlClient.SqlClient, read: Read, query: PageQuery) =>
  Effect.gen(function*() {
    const { where, order, score, limit, offset, unwindowed } = query
    const pageFrom = (from: Statement.Fragment) =>
      Effect.flatMap(
        read(sql`select r.id, ${score} as score from ${from} where ${where}
          order by ${sql.csv(order)} limit ${limit} offset ${offset}`),
        decodeHits
      )
    const countFrom = query.count ?? query.from
    let hits = yield* pageFrom(query.from)
    // Counted once at most: the count that decides whether to widen a window is the total too.
    let counted: Effect.Effect.Success<ReturnType<typeof countUpTo>> | undefined
    if (hits.length < limit && unwindowed !== undefined) {
      // The window may hold too few matches that pass the filters: if more records match, rank them all.
      counted = yield* countUpTo(sql, read, countFrom, where, query.countUpTo)
      if (counted.totalRelation === "eq" && counted.total <= offset + hits.length) return { hits, ...counted } satisfies SearchHits
      hits = yield* pageFrom(unwindowed)
    }
    // A short page that is not past the end tells the total without counting.
    if (hits.length < limit && (hits.length > 0 || offset === 0)) {
      return { hits, total: offset + hits.length, totalRelation: "eq" } satisfies SearchHits
    }
    counted ??= yield* countUpTo(sql, read, countFrom, where, query.countUpTo)
    // Paging past the bound: there are at least as many as the pages so far show.
    const seen = offset + hits.length
    return counted.totalRelation === "gte" && seen > counted.total
      ? { hits, total: seen, totalRelation: "gte" } satisfies SearchHits
      : { hits, ...counted } satisfies SearchHits
  })

/**
 * The built-in engine's filters and sorts, as SQL over the records table (aliased `r`) and the tables that hang off
 * it. Response scopes look at one user's responses when the search is caller-scoped.
 */
import type { SqlClient, Statement } from "@effect/sql"
import type { UserId } from "../../../domain/Ids.js"
import type { ResolvedScope, SearchFilter, SearchSort } from "../Query.js"
import type { JsonSql } from "./json.js"

type Fragment = Statement.Fragment

/** A key of a search's order: an expression over the record (`r`) and its text match (`m`), and its direction. */
export interface OrderKey {
  readonly key: Fragment
  readonly desc: boolean
}

const toNumber = (bound: number | string | undefined) =>
  bound === undefined ? undefined : typeof bound === "number" ? bound : Number(bound)

/** Bounds on timestamps arrive as ISO strings (or epoch milliseconds); stored ones are ISO strings / timestamptz. */
const toTimestamp = (bound: number | string | undefined) =>
  bound === undefined ? undefined : new Date(typeof bound === "number" ? bound : bound).toISOString()

export const clauses = (sql: SqlClient.SqlClient, json: JsonSql, user: UserId | undefined) => {
  const ofUser = user === undefined ? sql`` : sql`and rs.user_id = ${user}`
  const suggestion = (scope: Extract<ResolvedScope, { kind: "suggestion" }>, condition: Fragment) =>
    sql`exists (select 1 from suggestions s where s.record_id = r.id and s.question_id = ${scope.questionId} and ${condition})`
  const answer = (condition: Fragment) =>
    sql`exists (select 1 from responses rs where rs.record_id = r.id ${ofUser} and ${condition})`

  const terms = (scope: ResolvedScope, values: ReadonlyArray<string | number | boolean>): Fragment => {
    switch (scope.kind) {
      case "record":
        return sql`${sql(`r.${scope.property}`)} in ${sql.in(values.map(String))}`
      case "metadata":
        return json.containsAny("r.metadata", [scope.name], values)
      case "suggestion":
        return scope.property === "value"
          ? suggestion(scope, json.containsAny("s.value", [], values))
          : scope.property === "score"
          ? suggestion(scope, sql.or(values.map((v) => json.numberBetween("s.score", [], Number(v), Number(v)))))
          : suggestion(scope, sql`${sql(`s.${scope.property}`)} in ${sql.in(values.map(String))}`)
      case "responseStatus": {
        const statuses = values.map(String).filter((status) => status !== "pending")
        const some = statuses.length === 0 ? sql`1 = 0` : answer(sql`rs.status in ${sql.in(statuses)}`)
        // `pending`: no response (by the caller, on the caller-scoped search).
        return values.includes("pending")
          ? sql`(${some} or not exists (select 1 from responses rs where rs.record_id = r.id ${ofUser}))`
          : some
      }
      case "responseValue":
        return answer(json.containsAny(`rs."values"`, [scope.question, "value"], values))
    }
  }

  const range = (scope: ResolvedScope, ge: number | string | undefined, le: number | string | undefined): Fragment => {
    switch (scope.kind) {
      case "record": {
        const column = sql(`r.${scope.property}`)
        const [low, high] = scope.property === "inserted_at" || scope.property === "updated_at"
          ? [toTimestamp(ge), toTimestamp(le)]
          : [ge, le]
        return sql.and([
          ...(low === undefined ? [] : [sql`${column} >= ${low}`]),
          ...(high === undefined ? [] : [sql`${column} <= ${high}`])
        ])
      }
      case "metadata":
        return json.numberBetween("r.metadata", [scope.name], toNumber(ge), toNumber(le))
      case "suggestion":
        return suggestion(scope, json.numberBetween(scope.property === "score" ? "s.score" : "s.value", [], toNumber(ge), toNumber(le)))
      case "responseValue":
        return answer(json.numberBetween(`rs."values"`, [scope.question, "value"], toNumber(ge), toNumber(le)))
      case "responseStatus":
        return sql`1 = 1`
    }
  }

  const filter = (f: SearchFilter): Fragment => f.kind === "terms" ? terms(f.scope, f.values) : range(f.scope, f.ge, f.le)

  /** What a sort orders by; records without a value come last either way. */
  const sortKey = (scope: ResolvedScope): Fragment => {
    switch (scope.kind) {
      case "record":
        return sql`${sql(`r.${scope.property}`)}`
      case "metadata":
        return scope.type === "terms" ? json.text("r.metadata", [scope.name]) : json.number("r.metadata", [scope.name])
      case "suggestion": {
        const value = scope.property === "score"
          ? json.number("s.score", [])
          : scope.property === "value"
          ? scope.questionType === "rating" ? json.number("s.value", []) : json.text("s.value", [])
          : sql`${sql(`s.${scope.property}`)}`
        return sql`(select ${value} from suggestions s where s.record_id = r.id and s.question_id = ${scope.questionId})`
      }
      case "responseValue":
        return scope.questionType === "rating"
          ? sql`(select avg(${json.number(`rs."values"`, [scope.question, "value"])}) from responses rs where rs.record_id = r.id ${ofUser})`
          : sql`(select min(${json.text(`rs."values"`, [scope.question, "value"])}) from responses rs where rs.record_id = r.id ${ofUser})`
      case "responseStatus":
        return sql`(select min(rs.status) from responses rs where rs.record_id = r.id ${ofUser})`
    }
  }

  /** Each sort as keys of the order, nulls last either way. */
  const sorts = (list: ReadonlyArray<SearchSort>): ReadonlyArray<OrderKey> =>
    list.flatMap(({ order, scope }) => {
      const key = sortKey(scope)
      return [{ key: sql`(${key}) is null`, desc: false }, { key, desc: order === "desc" }]
    })

  return { filter, sorts } as const
}

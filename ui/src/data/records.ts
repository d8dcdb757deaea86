/**
 * The annotation queue: the caller's records in one response status, searched with the contract's body
 * and loaded a page at a time, the next page fetched before it is needed. Records the user
 * answers stay in the list (so "previous" still works) but are counted as having left the queue, which keeps
 * the offset of the next page right. Writes use the contract's calls: POST the first response, PUT later ones.
 */
import { useCallback, useEffect, useReducer, useRef } from "react"
import type { DatasetId } from "../../../src/domain/Ids.js"
import type { DatasetRecord } from "../../../src/domain/Record.js"
import type { Response, ResponseStatus, ResponseValues } from "../../../src/domain/Response.js"
import type { UserId } from "../../../src/domain/Ids.js"
import { call } from "./client.js"
import { PAGE_SIZE, type Queue, type QueueQuery, searchBody } from "./search.js"

export { isQueue, type MetadataFilter, type Queue, type QueueQuery, QUEUES, type TermValue } from "./search.js"

/** The caller's response to a record (searches on `/me/…` return only the caller's, but be precise). */
export const myResponse = (record: DatasetRecord, me: UserId | undefined): Response | undefined =>
  record.responses?.find((r) => me === undefined || r.user_id === me)

export const belongsTo = (record: DatasetRecord, queue: Queue, me: UserId | undefined) => {
  const mine = myResponse(record, me)
  return queue === "pending" ? mine === undefined : mine?.status === queue
}

export const saveResponse = (
  record: DatasetRecord,
  me: UserId | undefined,
  status: ResponseStatus,
  values: ResponseValues | null
): Promise<Response> => {
  const existing = myResponse(record, me)
  const payload = values === null ? { status } : { status, values }
  return call((c) =>
    existing === undefined
      ? c.responses.create({ path: { id: record.id }, payload })
      : c.responses.update({ path: { id: existing.id }, payload })
  )
}

/**
 * Puts the caller's answer to a record back as it was before `saved` was written: deleted when there was none,
 * else its earlier status and values.
 */
export const restoreResponse = (saved: Response, previous: Response | undefined): Promise<unknown> =>
  call((c) =>
    previous === undefined
      ? c.responses.delete({ path: { id: saved.id } })
      : c.responses.update({
        path: { id: saved.id },
        payload: previous.values === null ? { status: previous.status } : { status: previous.status, values: previous.values }
      })
  )

interface State {
  readonly records: ReadonlyArray<DatasetRecord>
  /** matching records on the server, as of the last page */
  readonly total: number
  readonly totalRelation: "eq" | "gte"
  /** records that had left the queue when its last page came: no longer in the server's total, still in the list */
  readonly leftBeforeTotal: number
  /** each loaded record's `query_score` (a "find similar" search's similarity), by id */
  readonly scores: ReadonlyMap<string, number>
  /** ids of loaded records the user has moved out of this queue */
  readonly left: ReadonlySet<string>
  readonly loading: boolean
  readonly error: unknown
  readonly generation: number
}

type Action =
  | { readonly _tag: "reset"; readonly generation: number }
  | { readonly _tag: "loading"; readonly generation: number }
  | {
    readonly _tag: "page"
    readonly generation: number
    readonly items: ReadonlyArray<DatasetRecord>
    readonly scores: ReadonlyArray<readonly [string, number]>
    readonly total: number
    readonly totalRelation: "eq" | "gte"
  }
  | { readonly _tag: "failed"; readonly generation: number; readonly error: unknown }
  | { readonly _tag: "replace"; readonly record: DatasetRecord; readonly inQueue: boolean }

const initial: State = { records: [], total: 0, totalRelation: "eq", leftBeforeTotal: 0, scores: new Map(), left: new Set(), loading: true, error: undefined, generation: 0 }

const reduce = (state: State, action: Action): State => {
  if (action._tag === "reset") return { ...initial, generation: action.generation }
  if (action._tag === "replace") {
    const left = new Set(state.left)
    if (action.inQueue) left.delete(action.record.id)
    else left.add(action.record.id)
    return { ...state, left, records: state.records.map((r) => (r.id === action.record.id ? action.record : r)) }
  }
  if (action.generation !== state.generation) return state
  switch (action._tag) {
    case "loading":
      return { ...state, loading: true, error: undefined }
    case "failed":
      return { ...state, loading: false, error: action.error }
    case "page": {
      const seen = new Set(state.records.map((r) => r.id))
      const fresh = action.items.filter((r) => !seen.has(r.id))
      const scores = action.scores.length === 0 ? state.scores : new Map([...state.scores, ...action.scores])
      return {
        ...state,
        loading: false,
        total: action.total,
        totalRelation: action.totalRelation,
        leftBeforeTotal: state.left.size,
        scores,
        records: [...state.records, ...fresh]
      }
    }
  }
}

export interface QueueView {
  readonly records: ReadonlyArray<DatasetRecord>
  /** records that matched the queue when its last page was loaded */
  readonly total: number
  /** `gte`: the server stopped counting (past 10 000 matches) and `total` is a lower bound */
  readonly totalRelation: "eq" | "gte"
  /**
   * How many records the list holds once every page is loaded: `total` plus the answered records that were already
   * out of the queue when it was counted. Positions in the list count those too, so "Record n of N" uses this.
   */
  readonly length: number
  /** similarity scores of a "find similar" queue, by record id (empty otherwise) */
  readonly scores: ReadonlyMap<string, number>
  readonly loading: boolean
  readonly error: unknown
  /** Loads the next page when `index` is close to the end of what is loaded. */
  readonly ensure: (index: number) => void
  readonly replace: (record: DatasetRecord) => void
}

export const useQueue = (datasetId: DatasetId, query: QueueQuery, me: UserId | undefined): QueueView => {
  const [state, dispatch] = useReducer(reduce, initial)
  const key = JSON.stringify([datasetId, query])
  const stateRef = useRef(state)
  stateRef.current = state
  const generation = useRef(0)
  const body = useRef(searchBody(query))

  const load = useCallback((offset: number, gen: number) => {
    dispatch({ _tag: "loading", generation: gen })
    call((c) =>
      c.search.mine({
        path: { id: datasetId },
        urlParams: { offset, limit: PAGE_SIZE, include: ["responses", "suggestions"] },
        payload: body.current
      })
    ).then(
      (page) =>
        dispatch({
          _tag: "page",
          generation: gen,
          items: page.items.map((i) => i.record),
          scores: page.items.flatMap((i) => (i.query_score === null ? [] : [[i.record.id, i.query_score] as const])),
          total: page.total,
          totalRelation: page.total_relation
        }),
      (error: unknown) => dispatch({ _tag: "failed", generation: gen, error })
    )
  }, [datasetId])

  useEffect(() => {
    generation.current += 1
    body.current = searchBody(query)
    dispatch({ _tag: "reset", generation: generation.current })
    load(0, generation.current)
    // `key` stands for datasetId + query
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, load])

  const ensure = useCallback((index: number) => {
    const s = stateRef.current
    if (s.loading || s.error !== undefined) return
    const stillInQueue = s.records.length - s.left.size
    // Past a lower bound there may be more than the total says: keep loading until a page comes back short.
    const more = s.totalRelation === "gte" || stillInQueue < s.total
    if (index >= s.records.length - 5 && more) load(stillInQueue, generation.current)
  }, [load])

  const replace = useCallback((record: DatasetRecord) =>
    dispatch({ _tag: "replace", record, inQueue: belongsTo(record, query.queue, me) }), [query.queue, me])

  return {
    records: state.records,
    total: state.total,
    totalRelation: state.totalRelation,
    length: state.total + state.leftBeforeTotal,
    scores: state.scores,
    loading: state.loading,
    error: state.error,
    ensure,
    replace
  }
}

/**
 * The annotation queue: the caller's records in one response status, loaded a page at a time, the next page fetched
 * before it is needed. The Pending queue without a sort or "find similar", where the dataset's own queue applies to
 * the caller (`queueApplies`), is that queue (`POST /api/gloss/me/datasets/{id}/queue`: assigned records, then the
 * pool's, each with why it is there, the page's pool records reserved for the caller); any other view is the
 * contract's search. Records the user answers stay in the list (so "previous" still works) but are counted as
 * having left the queue, which keeps the offset of the next page right. Writes use the contract's calls: POST the
 * first response, PUT later ones.
 */
import { useCallback, useEffect, useReducer, useRef } from "react"
import type { DatasetId } from "../../../src/domain/Ids.js"
import type { DatasetRecord } from "../../../src/domain/Record.js"
import type { Response, ResponseStatus, ResponseValues } from "../../../src/domain/Response.js"
import type { Suggestion } from "../../../src/domain/Suggestion.js"
import type { UserId } from "../../../src/domain/Ids.js"
import { call } from "./client.js"
import type { QueuePlace } from "./queueRules.js"
import { PAGE_SIZE, type Queue, type QueueQuery, queueNarrowing, searchBody, usesQueue } from "./search.js"

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
  /** why each loaded record is in the caller's queue, by id (read from the queue only) */
  readonly places: ReadonlyMap<string, QueuePlace>
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
    readonly places: ReadonlyArray<readonly [string, QueuePlace]>
    readonly total: number
    readonly totalRelation: "eq" | "gte"
  }
  | { readonly _tag: "failed"; readonly generation: number; readonly error: unknown }
  | { readonly _tag: "replace"; readonly record: DatasetRecord; readonly inQueue: boolean }
  | { readonly _tag: "reveal"; readonly id: string; readonly suggestions: ReadonlyArray<Suggestion> }

const initial: State = {
  records: [],
  total: 0,
  totalRelation: "eq",
  leftBeforeTotal: 0,
  scores: new Map(),
  places: new Map(),
  left: new Set(),
  loading: true,
  error: undefined,
  generation: 0
}

/** Whether the caller has submitted or discarded the record: what lifts a blind dataset's veil on its suggestions. */
const answered = (record: DatasetRecord) =>
  record.responses?.some((r) => r.status === "submitted" || r.status === "discarded") ?? false

const reduce = (state: State, action: Action): State => {
  if (action._tag === "reset") return { ...initial, generation: action.generation }
  if (action._tag === "replace") {
    const left = new Set(state.left)
    if (action.inQueue) left.delete(action.record.id)
    else left.add(action.record.id)
    return { ...state, left, records: state.records.map((r) => (r.id === action.record.id ? action.record : r)) }
  }
  if (action._tag === "reveal") {
    // An undo may have taken the answer back meanwhile: then the record stays as the server showed it, blind.
    return {
      ...state,
      records: state.records.map((r) => (r.id === action.id && answered(r) ? { ...r, suggestions: action.suggestions } : r))
    }
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
      const places = action.places.length === 0 ? state.places : new Map([...state.places, ...action.places])
      return {
        ...state,
        loading: false,
        total: action.total,
        totalRelation: action.totalRelation,
        leftBeforeTotal: state.left.size,
        scores,
        places,
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
  /** why each record is in the caller's queue, by record id (empty when the view is a search) */
  readonly places: ReadonlyMap<string, QueuePlace>
  readonly loading: boolean
  readonly error: unknown
  /** Loads the next page when `index` is close to the end of what is loaded. */
  readonly ensure: (index: number) => void
  readonly replace: (record: DatasetRecord) => void
  /** Shows suggestions a blind dataset withheld, on a record the caller has since submitted or discarded. */
  readonly reveal: (id: string, suggestions: ReadonlyArray<Suggestion>) => void
}

interface Page {
  readonly items: ReadonlyArray<DatasetRecord>
  readonly scores: ReadonlyArray<readonly [string, number]>
  readonly places: ReadonlyArray<readonly [string, QueuePlace]>
  readonly total: number
  readonly totalRelation: "eq" | "gte"
}

const INCLUDE = ["responses", "suggestions"]

type Source = "queue" | "search"

/** A page of the view: from the caller's queue (which reserves its pool records for them), or from a search. */
const fetchPage = (datasetId: DatasetId, query: QueueQuery, source: Source, offset: number): Promise<Page> => {
  if (source === "queue") {
    const narrowing = queueNarrowing(query)
    return call((c) =>
      c.assignment.queue({
        path: { id: datasetId },
        urlParams: { offset, limit: PAGE_SIZE, include: INCLUDE },
        payload: narrowing === undefined ? {} : { query: narrowing }
      })
    ).then((page) => ({
      items: page.items.map((i) => i.record),
      scores: [],
      places: page.items.map((i) =>
        [i.record.id, { reason: i.reason, priority: i.priority, leaseExpiresAt: i.lease_expires_at }] as const
      ),
      total: page.total,
      totalRelation: "eq"
    }))
  }
  return call((c) =>
    c.search.mine({
      path: { id: datasetId },
      urlParams: { offset, limit: PAGE_SIZE, include: INCLUDE },
      payload: searchBody(query)
    })
  ).then((page) => ({
    items: page.items.map((i) => i.record),
    scores: page.items.flatMap((i) => (i.query_score === null ? [] : [[i.record.id, i.query_score] as const])),
    places: [],
    total: page.total,
    totalRelation: page.total_relation
  }))
}

/**
 * `ownQueue`: whether the dataset's own queue applies to the caller (undefined while not known: a view that would
 * read it waits, rather than showing a search's list and then another).
 */
export const useQueue = (
  datasetId: DatasetId,
  query: QueueQuery,
  me: UserId | undefined,
  ownQueue: boolean | undefined
): QueueView => {
  const [state, dispatch] = useReducer(reduce, initial)
  const source: Source | undefined = !usesQueue(query)
    ? "search"
    : ownQueue === undefined
    ? undefined
    : ownQueue ? "queue" : "search"
  const key = JSON.stringify([datasetId, query, source])
  const stateRef = useRef(state)
  stateRef.current = state
  const generation = useRef(0)
  const view = useRef({ query, source })

  const load = useCallback((offset: number, gen: number) => {
    const { query, source } = view.current
    if (source === undefined) return
    dispatch({ _tag: "loading", generation: gen })
    fetchPage(datasetId, query, source, offset).then(
      (page) => dispatch({ _tag: "page", generation: gen, ...page }),
      (error: unknown) => dispatch({ _tag: "failed", generation: gen, error })
    )
  }, [datasetId])

  useEffect(() => {
    generation.current += 1
    view.current = { query, source }
    dispatch({ _tag: "reset", generation: generation.current })
    load(0, generation.current)
    // `key` stands for datasetId + query + source
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

  const reveal = useCallback((id: string, suggestions: ReadonlyArray<Suggestion>) =>
    dispatch({ _tag: "reveal", id, suggestions }), [])

  return {
    records: state.records,
    total: state.total,
    totalRelation: state.totalRelation,
    length: state.total + state.leftBeforeTotal,
    scores: state.scores,
    places: state.places,
    loading: state.loading,
    error: state.error,
    ensure,
    replace,
    reveal
  }
}

/**
 * The bulk view's data: a page of the caller's queue (the same search body as the focus view's queue), the writes
 * for records selected on screen (`POST /me/responses/bulk`, at most 100 items a call), and the job that applies an
 * answer to every record the search matches (`POST /me/datasets/{id}/responses/apply`, then `GET /jobs/{id}`).
 */
import { queryOptions } from "@tanstack/react-query"
import { useCallback, useEffect, useRef, useState } from "react"
import type { DatasetId, RecordId, UserId } from "../../../src/domain/Ids.js"
import type { Job } from "../../../src/domain/Job.js"
import type { DatasetRecord } from "../../../src/domain/Record.js"
import type { ResponseStatus, ResponseValues } from "../../../src/domain/Response.js"
import type { SearchRecordsQuery } from "../../../src/domain/Search.js"
import { chunks } from "../screens/annotation/bulk/selection.js"
import { call, errorMessage } from "./client.js"
import { queryClient, refreshProgress } from "./queries.js"
import { myResponse } from "./records.js"

export interface BulkPageData {
  readonly records: ReadonlyArray<DatasetRecord>
  readonly total: number
  readonly totalRelation: "eq" | "gte"
  /** where these records start in the queue: the page shown while the next one loads is still this one */
  readonly offset: number
}

export const bulkPage = (datasetId: DatasetId, body: SearchRecordsQuery, offset: number, limit: number) =>
  queryOptions({
    queryKey: ["dataset", datasetId, "bulk", body, offset, limit],
    queryFn: ({ signal }) =>
      call((c) =>
        c.search.mine({
          path: { id: datasetId },
          urlParams: { offset, limit, include: ["responses", "suggestions"] },
          payload: body
        }), signal
      ).then((page): BulkPageData => ({
        records: page.items.map((item) => item.record),
        total: page.total,
        totalRelation: page.total_relation,
        offset
      })),
    staleTime: 0
  })

/** After bulk writes: the bulk pages, both progress panels and the home list's bar of this dataset. */
export const refreshBulk = (datasetId: DatasetId) =>
  Promise.all([queryClient.invalidateQueries({ queryKey: ["dataset", datasetId, "bulk"] }), refreshProgress(datasetId)])

export interface ItemError {
  readonly recordId: string
  readonly detail: string
}

export interface BulkOutcome {
  readonly saved: number
  readonly errors: ReadonlyArray<ItemError>
}

/**
 * The answer for one record: the form's values over the caller's earlier ones (a draft's span answers, which the
 * bulk form does not show, are kept).
 */
const valuesFor = (record: DatasetRecord, me: UserId | undefined, values: ResponseValues | null): ResponseValues | null => {
  const earlier = myResponse(record, me)?.values ?? null
  if (earlier === null) return values
  if (values === null) return earlier
  return { ...earlier, ...values }
}

/**
 * The caller's answer on each of `records`, through `POST /me/responses/bulk` in calls of at most 100 items, one
 * after the other; an item the server refuses is reported with its reason, the others are saved.
 */
export const saveRecords = async (
  records: ReadonlyArray<DatasetRecord>,
  me: UserId | undefined,
  status: ResponseStatus,
  values: ResponseValues | null,
  send: (items: ReadonlyArray<{ readonly record_id: RecordId; readonly status: ResponseStatus; readonly values?: ResponseValues | null }>) =>
    Promise<{ readonly items: ReadonlyArray<{ readonly error: { readonly detail: string } | null }> }> = (items) =>
      call((c) => c.responses.bulk({ payload: { items } }))
): Promise<BulkOutcome> => {
  let saved = 0
  const errors: Array<ItemError> = []
  for (const chunk of chunks(records)) {
    const items = chunk.map((record) => {
      const answer = valuesFor(record, me, values)
      return answer === null ? { record_id: record.id, status } : { record_id: record.id, status, values: answer }
    })
    try {
      const result = await send(items)
      result.items.forEach((outcome, i) => {
        if (outcome.error === null) saved += 1
        else errors.push({ recordId: chunk[i]?.id ?? "", detail: outcome.error.detail })
      })
    } catch (error) {
      const detail = errorMessage(error)
      for (const record of chunk) errors.push({ recordId: record.id, detail })
    }
  }
  return { saved, errors }
}

const TERMINAL: ReadonlyArray<Job["status"]> = ["finished", "failed", "stopped", "canceled"]
export const isDone = (job: Job) => TERMINAL.includes(job.status)

export const POLL_MS = 500

export interface ApplyRun {
  readonly job: Job | undefined
  readonly error: string | undefined
  readonly running: boolean
}

/**
 * Starts the apply job and follows it every `POLL_MS` until it ends; then refreshes the bulk pages and the
 * progress. Leaving the screen stops the polling (the job itself goes on on the server).
 */
export const useApplyJob = (datasetId: DatasetId) => {
  const [run, setRun] = useState<ApplyRun>({ job: undefined, error: undefined, running: false })
  const alive = useRef(true)
  useEffect(() => {
    alive.current = true
    return () => void (alive.current = false)
  }, [])

  const start = useCallback(async (
    search: SearchRecordsQuery,
    status: ResponseStatus,
    values: ResponseValues | null,
    exclude: ReadonlyArray<RecordId>
  ): Promise<Job | undefined> => {
    setRun({ job: undefined, error: undefined, running: true })
    try {
      let job = await call((c) =>
        c.responses.apply({
          path: { id: datasetId },
          payload: { search, status, ...(values === null ? {} : { values }), ...(exclude.length === 0 ? {} : { exclude }) }
        })
      )
      while (alive.current) {
        setRun({ job, error: undefined, running: !isDone(job) })
        if (isDone(job)) break
        await new Promise((resolve) => setTimeout(resolve, POLL_MS))
        const id = job.id
        job = await call((c) => c.jobs.get({ path: { id } }))
      }
      await refreshBulk(datasetId)
      return job
    } catch (error) {
      if (alive.current) setRun((current) => ({ job: current.job, error: errorMessage(error), running: false }))
      void refreshBulk(datasetId)
      return undefined
    }
  }, [datasetId])

  const dismiss = useCallback(() => setRun({ job: undefined, error: undefined, running: false }), [])
  return { run, start, dismiss }
}

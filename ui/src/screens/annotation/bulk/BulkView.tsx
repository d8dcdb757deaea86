/**
 * The bulk view of the annotation screen (`?view=bulk`): a page of the queue (`_page`, `_page_size` in the URL) and
 * the writes. Records selected on the page go through `POST /me/responses/bulk` in calls of at most 100; "all
 * matching" starts the apply job with the queue's own search body and follows its progress.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query"
import { useMemo, useState } from "react"
import type { Field } from "../../../../../src/domain/Field.js"
import type { DatasetId, UserId } from "../../../../../src/domain/Ids.js"
import type { Question } from "../../../../../src/domain/Question.js"
import type { ResponseStatus, ResponseValues } from "../../../../../src/domain/Response.js"
import { bulkPage, refreshBulk, saveRecords, useApplyJob } from "../../../data/bulk.js"
import { errorMessage } from "../../../data/client.js"
import { type QueueQuery, searchBody } from "../../../data/search.js"
import { setSearch, useLocation } from "../../../router.js"
import { BulkPanel, type BulkTarget } from "./BulkPanel.js"
import { JobProgress } from "./JobProgress.js"
import { pageSizeOf } from "./selection.js"

interface Props {
  readonly datasetId: DatasetId
  readonly query: QueueQuery
  readonly fields: ReadonlyArray<Field>
  readonly questions: ReadonlyArray<Question>
  readonly me: UserId | undefined
  /** Owners and admins may assign the records they pick. */
  readonly manages?: boolean | undefined
}

const STATUS_WORD: Record<ResponseStatus, string> = { submitted: "submitted", draft: "saved as draft", discarded: "discarded" }

export const BulkView = (props: Props) => {
  const { datasetId, me, query } = props
  const { search } = useLocation()
  const pageSize = pageSizeOf(search.get("_page_size"))
  const pageNumber = Math.max(1, Number.parseInt(search.get("_page") ?? "1", 10) || 1)
  const offset = (pageNumber - 1) * pageSize
  const body = useMemo(() => searchBody(query), [query])
  // The previous page stays on screen while the next one loads (no flash of an empty list).
  const page = useQuery({ ...bulkPage(datasetId, body, offset, pageSize), placeholderData: keepPreviousData })
  // Positions, the range and a page selection follow the records on screen, not the page asked for: while the next
  // page loads, the previous one is still what a checkbox ticks.
  const shownOffset = page.data?.offset ?? offset
  const apply = useApplyJob(datasetId)
  const [writing, setWriting] = useState(false)
  const [itemErrors, setItemErrors] = useState<Readonly<Record<string, string>>>({})
  const [outcome, setOutcome] = useState<string | undefined>(undefined)

  const onApply = async (target: BulkTarget, status: ResponseStatus, values: ResponseValues | null) => {
    setOutcome(undefined)
    setItemErrors({})
    if (target._tag === "all") {
      const job = await apply.start(body, status, values, target.exclude)
      return job !== undefined && job.status === "finished"
    }
    setWriting(true)
    try {
      const result = await saveRecords(target.records, me, status, values)
      setItemErrors(Object.fromEntries(result.errors.map((e) => [e.recordId, e.detail])))
      setOutcome(
        `${result.saved} record${result.saved === 1 ? "" : "s"} ${STATUS_WORD[status]}` +
          (result.errors.length === 0 ? "." : `; ${result.errors.length} not saved (each says why).`)
      )
      await refreshBulk(datasetId)
      return result.errors.length === 0
    } catch (error) {
      setOutcome(errorMessage(error))
      return false
    } finally {
      setWriting(false)
    }
  }

  const showJob = apply.run.running || apply.run.job !== undefined || apply.run.error !== undefined
  return (
    <BulkPanel
      assignHref={props.manages === true ? `/dataset/${datasetId}/assignments` : undefined}
      records={page.data?.records ?? []}
      total={page.data?.total ?? 0}
      totalRelation={page.data?.totalRelation ?? "eq"}
      offset={shownOffset}
      pageSize={pageSize}
      loading={page.isFetching}
      fields={props.fields}
      questions={props.questions}
      me={me}
      busy={writing || apply.run.running}
      itemErrors={itemErrors}
      queryKey={JSON.stringify(body)}
      pageKey={`${shownOffset}:${pageSize}`}
      status={
        <>
          {page.error === null ? null : <p className="error" role="alert">{errorMessage(page.error)}</p>}
          {outcome === undefined ? null : <p className="notice bulk-outcome" role="status">{outcome}</p>}
          {showJob ? <JobProgress {...apply.run} onDismiss={apply.dismiss} /> : null}
        </>
      }
      onPageSize={(size) => setSearch({ _page_size: size === 10 ? undefined : String(size), _page: undefined })}
      onPage={(next) => setSearch({ _page: next === 0 ? undefined : String(Math.floor(next / pageSize) + 1) })}
      onApply={onApply}
    />
  )
}

/**
 * Review mode (`review=1`; owners, admins and the workspace's reviewers): the review queue the reviewer picks
 * (`QueuePicker`, its state in the URL), one record at a time with everyone's answers and its adjudication
 * (`AdjudicationPanel`). Agreement, disagreements and the queues' counts are the server's. The focus view's text
 * and metadata filters narrow the queue; `review_at` is the position.
 */
import { type InfiniteData, useQuery } from "@tanstack/react-query"
import { useEffect, useMemo, useRef } from "react"
import type { Dataset } from "../../../../../src/domain/Dataset.js"
import type { Field } from "../../../../../src/domain/Field.js"
import type { Question } from "../../../../../src/domain/Question.js"
import type { FinalAnswerSet, ReviewQueuePage } from "../../../../../src/domain/Review.js"
import type { User } from "../../../../../src/domain/User.js"
import { errorMessage } from "../../../data/client.js"
import { queryClient } from "../../../data/queries.js"
import {
  canReview,
  datasetAnnotators,
  isForbidden,
  queueRequest,
  refreshReview,
  reviewSearch,
  reviewViewFromUrl,
  settle,
  unsettle,
  userNames,
  useReviewQueue
} from "../../../data/review.js"
import type { QueueQuery } from "../../../data/search.js"
import { setSearch, useLocation } from "../../../router.js"
import { FieldValue } from "../fields/FieldView.js"
import { AcceptAgreed } from "./AcceptAgreed.js"
import { AdjudicationPanel } from "./AdjudicationPanel.js"
import { REVIEW_KEYS } from "./keys.js"
import { QueuePicker } from "./QueuePicker.js"
import "./review.css"

interface Props {
  readonly dataset: Dataset
  readonly fields: ReadonlyArray<Field>
  readonly questions: ReadonlyArray<Question>
  readonly query: QueueQuery
  readonly me: User
}

export const ReviewMode = (props: Props) => {
  const { dataset, fields, me, questions } = props
  const { search } = useLocation()
  const view = useMemo(() => reviewViewFromUrl(search), [search])
  const request = useMemo(() => queueRequest(view, props.query), [view, props.query])
  const narrowing = useMemo(() => reviewSearch(props.query), [props.query])
  const position = Math.max(0, (Number.parseInt(search.get("review_at") ?? "1", 10) || 1) - 1)
  const pages = useReviewQueue(dataset.id, request)
  // Owners and admins may list users; a reviewer learns the annotators' names from the agreement report.
  const members = useQuery({ ...userNames(me.role, dataset.workspace_id), enabled: canReview(me.role) }).data
  const annotators = useQuery(datasetAnnotators(dataset.id)).data
  const names = useMemo(
    () => new Map([...(members ?? []), ...(annotators ?? []), [me.id, me.username]]),
    [members, annotators, me.id, me.username]
  )
  const nameOf = (id: string) => names.get(id) ?? id

  const items = useMemo(() => pages.data?.pages.flatMap((p) => p.items) ?? [], [pages.data])
  const item = items[position]
  const first = pages.data?.pages[0]
  const { fetchNextPage, hasNextPage, isFetchingNextPage } = pages

  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && position >= items.length - 3) void fetchNextPage()
  }, [position, items.length, hasNextPage, isFetchingNextPage, fetchNextPage])

  const goTo = (index: number) => setSearch({ review_at: index === 0 ? undefined : String(index + 1) })
  const canPrevious = position > 0
  const canNext = position + 1 < items.length

  // After a write the queue is read again; the next record is the one after the settled record where it still is
  // in the queue, or the one now at its place where settling took it out (Unsettled, Disagreements settled).
  const key = ["dataset", dataset.id, "review", "queue", request]
  const latestKey = useRef(key)
  latestKey.current = key
  const afterSettle = async (recordId: string) => {
    await refreshReview(dataset.id)
    const data = queryClient.getQueryData<InfiniteData<ReviewQueuePage>>(latestKey.current)
    const fresh = data?.pages.flatMap((p) => p.items) ?? []
    const at = fresh.findIndex((i) => i.record.id === recordId)
    goTo(at === -1 ? Math.min(position, Math.max(fresh.length, 1) - 1) : at + 1)
  }

  const total = first === undefined ? "…" : String(first.total)

  return (
    <section className="review-mode" aria-labelledby="review-mode-title">
      <h2 id="review-mode-title" className="visually-hidden">Review</h2>
      <QueuePicker view={view} page={first} annotators={annotators ?? new Map()} />
      <div className="review-toolbar">
        <AcceptAgreed datasetId={dataset.id} query={narrowing} />
        {hasNextPage
          ? (
            <button type="button" className="secondary" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
              {isFetchingNextPage ? "Loading…" : "Load more records"}
            </button>
          )
          : null}
      </div>
      <p className="muted review-note">
        The search and metadata filters narrow the queue; the focus view’s queue is about your own answers and does
        not. Only submitted answers count. To answer as yourself, leave review mode.
      </p>
      {item === undefined
        ? (
          <div className="empty" aria-live="polite">
            {pages.isPending || isFetchingNextPage
              ? <p>Loading records…</p>
              : pages.error !== null
              ? <p role="alert">{isForbidden(pages.error) ? "You do not have review rights in this workspace." : errorMessage(pages.error)}</p>
              : <h3>{position > 0 && items.length > 0 ? "No more records in this queue" : "No records in this queue"}</h3>}
            {position > 0 && items.length > 0
              ? <button type="button" className="secondary" onClick={() => goTo(0)}>Back to the first record</button>
              : null}
          </div>
        )
        : (
          <>
            <nav className="record-nav" aria-label="Records to review">
              <button type="button" className="secondary" disabled={!canPrevious} onClick={() => goTo(position - 1)}
                aria-keyshortcuts="ArrowLeft K">
                <kbd aria-hidden="true">{REVIEW_KEYS.previousRecord}</kbd> Previous
              </button>
              <span className="muted" aria-live="polite">Record {position + 1} of {total}</span>
              <button type="button" className="secondary" disabled={!canNext} onClick={() => goTo(position + 1)}
                aria-keyshortcuts="ArrowRight J">
                Next <kbd aria-hidden="true">{REVIEW_KEYS.nextRecord}</kbd>
              </button>
            </nav>
            <div className="review-record">
              <article className="record-card review-fields" aria-label={`Record ${position + 1}`}>
                <header className="record-header">
                  <span className="position">{item.record.external_id ?? position + 1}</span>
                  <span className={`badge status-${item.record.status}`}>{item.record.status}</span>
                </header>
                {fields.map((field) => (
                  <section key={field.id} className="field" aria-labelledby={`rf-${field.id}`}>
                    <h3 id={`rf-${field.id}`} className="field-title">{field.title}</h3>
                    <FieldValue field={field} record={item.record} />
                  </section>
                ))}
              </article>
              <AdjudicationPanel
                key={`${item.record.id}:${item.final_answers.map((f) => `${f.question}@${f.updated_at}`).join(",")}`}
                item={item}
                questions={questions}
                nameOf={nameOf}
                onSettle={async (settled: ReadonlyArray<FinalAnswerSet>) => {
                  await settle(item.record.id, settled)
                  await afterSettle(item.record.id)
                }}
                onUnsettle={async (question) => {
                  await unsettle(item.record.id, question)
                  await refreshReview(dataset.id)
                }}
                onNext={() => canNext && goTo(position + 1)}
                onPrevious={() => canPrevious && goTo(position - 1)}
              />
            </div>
          </>
        )}
    </section>
  )
}

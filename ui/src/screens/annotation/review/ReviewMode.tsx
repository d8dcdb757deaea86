/**
 * Review mode (`review=1`, owners and admins): records from the all-users search with every annotator's response
 * beside them. The focus view's text and metadata filters apply; `review_show` picks which records, `review_at`
 * the position. "Submitted by 2 or more" and "with disagreement" are narrowed in the browser over the pages loaded
 * so far, which the screen says.
 */
import { useQuery } from "@tanstack/react-query"
import { useEffect, useMemo } from "react"
import type { Dataset } from "../../../../../src/domain/Dataset.js"
import type { Field } from "../../../../../src/domain/Field.js"
import type { Question } from "../../../../../src/domain/Question.js"
import type { User } from "../../../../../src/domain/User.js"
import { errorMessage } from "../../../data/client.js"
import { isForbidden, isReviewShow, reviewBody, type ReviewShow, useReviewRecords, userNames } from "../../../data/review.js"
import type { QueueQuery } from "../../../data/search.js"
import { isTyping } from "../../../keyboard/shortcuts.js"
import { setSearch, useLocation } from "../../../router.js"
import { FieldValue } from "../fields/FieldView.js"
import { hasDisagreement, submitted } from "./agreement.js"
import { ReviewPanel } from "./ReviewPanel.js"
import "./review.css"

const SHOW_LABELS: Readonly<Record<ReviewShow, string>> = {
  submitted: "Records with a submitted response",
  all: "All records",
  multiple: "Submitted by 2 or more annotators",
  disagreement: "Records with disagreement"
}

/** Past this many loaded records, the browser-side filters stop loading more on their own. */
const AUTO_LOAD_LIMIT = 500

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
  const rawShow = search.get("review_show")
  const show: ReviewShow = isReviewShow(rawShow) ? rawShow : "submitted"
  const position = Math.max(0, (Number.parseInt(search.get("review_at") ?? "1", 10) || 1) - 1)
  const body = useMemo(() => reviewBody(props.query, show), [props.query, show])
  const pages = useReviewRecords(dataset.id, body, true)
  const names = useQuery(userNames(me.role, dataset.workspace_id)).data
  const nameMap = useMemo(() => new Map([...(names ?? []), [me.id, me.username]]), [names, me.id, me.username])

  const loaded = useMemo(() => pages.data?.pages.flatMap((p) => p.items.map((i) => i.record)) ?? [], [pages.data])
  const inBrowser = show === "multiple" || show === "disagreement"
  const visible = useMemo(() =>
    show === "multiple"
      ? loaded.filter((r) => submitted(r).length >= 2)
      : show === "disagreement"
      ? loaded.filter((r) => hasDisagreement(questions, r))
      : loaded, [loaded, show, questions])
  const record = visible[position]
  const first = pages.data?.pages[0]
  const { fetchNextPage, hasNextPage, isFetchingNextPage } = pages

  useEffect(() => {
    if (!hasNextPage || isFetchingNextPage || position < visible.length - 3) return
    if (inBrowser && loaded.length >= AUTO_LOAD_LIMIT) return
    void fetchNextPage()
  }, [position, visible.length, loaded.length, inBrowser, hasNextPage, isFetchingNextPage, fetchNextPage])

  const goTo = (index: number) => setSearch({ review_at: index === 0 ? undefined : String(index + 1) })
  const canPrevious = position > 0
  const canNext = position + 1 < visible.length

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isTyping(event.target) || event.altKey || event.ctrlKey || event.metaKey) return
      if (event.key === "ArrowLeft" && canPrevious) goTo(position - 1)
      else if (event.key === "ArrowRight" && canNext) goTo(position + 1)
      else return
      event.preventDefault()
    }
    window.addEventListener("keydown", onKey)
    return () => window.removeEventListener("keydown", onKey)
  })

  const total = first === undefined
    ? "…"
    : inBrowser
    ? `${visible.length}${hasNextPage ? "+" : ""}`
    : `${first.total}${first.total_relation === "gte" ? "+" : ""}`

  return (
    <section className="review-mode" aria-labelledby="review-mode-title">
      <h2 id="review-mode-title" className="visually-hidden">Review</h2>
      <div className="review-toolbar">
        <label>
          Show
          <select
            value={show}
            onChange={(event) => setSearch({ review_show: event.target.value === "submitted" ? undefined : event.target.value, review_at: undefined })}
          >
            {Object.entries(SHOW_LABELS).map(([value, text]) => <option key={value} value={value}>{text}</option>)}
          </select>
        </label>
        {hasNextPage
          ? (
            <button type="button" className="secondary" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
              {isFetchingNextPage ? "Loading…" : "Load more records"}
            </button>
          )
          : null}
      </div>
      <p className="muted review-note">
        {inBrowser
          ? `Filtered in your browser over the ${loaded.length} records loaded so far${
            first === undefined ? "" : ` of ${first.total}${first.total_relation === "gte" ? "+" : ""}`
          }. `
          : null}
        The search and metadata filters apply; the queue selector is about your own answers and does not. To answer
        as yourself, leave review mode.
      </p>
      {record === undefined
        ? (
          <div className="empty" aria-live="polite">
            {pages.isPending || isFetchingNextPage
              ? <p>Loading records…</p>
              : pages.error !== null
              ? <p role="alert">{isForbidden(pages.error) ? "Only owners and admins can review other annotators’ responses." : errorMessage(pages.error)}</p>
              : <h3>{position > 0 && visible.length > 0 ? "No more records" : "No records to review"}</h3>}
            {position > 0 && visible.length > 0
              ? <button type="button" className="secondary" onClick={() => goTo(0)}>Back to the first record</button>
              : null}
          </div>
        )
        : (
          <>
            <nav className="record-nav" aria-label="Records to review">
              <button type="button" className="secondary" disabled={!canPrevious} onClick={() => goTo(position - 1)}
                aria-keyshortcuts="ArrowLeft">
                Previous
              </button>
              <span className="muted" aria-live="polite">Record {position + 1} of {total}</span>
              <button type="button" className="secondary" disabled={!canNext} onClick={() => goTo(position + 1)}
                aria-keyshortcuts="ArrowRight">
                Next
              </button>
            </nav>
            <div className="review-record">
              <article className="record-card review-fields" aria-label={`Record ${position + 1}`}>
                <header className="record-header">
                  <span className="position">{record.external_id ?? position + 1}</span>
                  <span className={`badge status-${record.status}`}>{record.status}</span>
                </header>
                {fields.map((field) => (
                  <section key={field.id} className="field" aria-labelledby={`rf-${field.id}`}>
                    <h3 id={`rf-${field.id}`} className="field-title">{field.title}</h3>
                    <FieldValue field={field} record={record} />
                  </section>
                ))}
              </article>
              <ReviewPanel record={record} questions={questions} names={nameMap} />
            </div>
          </>
        )}
    </section>
  )
}

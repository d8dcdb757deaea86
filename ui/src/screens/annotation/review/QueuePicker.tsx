/**
 * Which records review mode goes through: all answered, disagreements, unsettled, settled or a random sample (its
 * size and seed in the URL, so the same link gives the same sample), one annotator's records or everyone's, least
 * agreement first or in insertion order, and one question's disagreements when the agreement page linked to them.
 * The counts are the server's, from the queue's first page.
 */
import type { ReviewQueueKind, ReviewQueuePage } from "../../../../../src/domain/Review.js"
import { newSeed, REVIEW_QUEUES, type ReviewView } from "../../../data/reviewQuery.js"
import { setSearch } from "../../../router.js"

const QUEUE_LABELS: Readonly<Record<ReviewQueueKind, string>> = {
  all: "All answered",
  disagreement: "Disagreements",
  unsettled: "Unsettled",
  settled: "Settled",
  sample: "Sample"
}

interface Props {
  readonly view: ReviewView
  /** the first page of the current queue, once loaded */
  readonly page: ReviewQueuePage | undefined
  /** annotators who submitted answers, by user id */
  readonly annotators: ReadonlyMap<string, string>
}

export const QueuePicker = ({ annotators, page, view }: Props) => {
  const countOf = (queue: ReviewQueueKind) =>
    page === undefined ? undefined : queue === "sample" ? (view.queue === "sample" ? page.total : undefined) : page.counts[queue]
  const people = [...annotators.entries()].sort(([, a], [, b]) => a.localeCompare(b))
  if (view.annotator !== undefined && !annotators.has(view.annotator)) people.push([view.annotator, view.annotator])
  return (
    <div className="review-toolbar" role="group" aria-label="Which records to review">
      <span className="review-control">
        <label htmlFor="review-queue">Review queue</label>
        <select
          id="review-queue"
          value={view.queue}
          onChange={(event) => {
            const queue = event.target.value
            setSearch({
              review_queue: queue === "all" ? undefined : queue,
              review_seed: queue === "sample" ? view.seed ?? newSeed() : view.seed,
              review_at: undefined
            })
          }}
        >
          {REVIEW_QUEUES.map((queue) => {
            const count = countOf(queue)
            const text = QUEUE_LABELS[queue]
            return <option key={queue} value={queue}>{count === undefined ? text : `${text} (${count})`}</option>
          })}
        </select>
      </span>
      {view.queue === "sample"
        ? (
          <>
            <span className="review-control">
              <label htmlFor="review-sample">Sample %</label>
              <input
                id="review-sample"
                type="number"
                className="review-sample"
                min={1}
                max={100}
                step={1}
                value={view.samplePercent}
                onChange={(event) => {
                  const value = Number(event.target.value)
                  if (Number.isFinite(value) && value > 0 && value <= 100) {
                    setSearch({ review_sample: String(value), review_at: undefined })
                  }
                }}
              />
            </span>
            <span className="muted review-seed">seed {view.seed ?? "–"}</span>
            <button type="button" className="secondary" onClick={() => setSearch({ review_seed: newSeed(), review_at: undefined })}>
              New sample
            </button>
          </>
        )
        : null}
      <span className="review-control">
        <label htmlFor="review-annotator">Annotator</label>
        <select
          id="review-annotator"
          value={view.annotator ?? ""}
          onChange={(event) => setSearch({ review_annotator: event.target.value, review_at: undefined })}
        >
          <option value="">Everyone</option>
          {people.map(([id, name]) => <option key={id} value={id}>Review {name}’s answers</option>)}
        </select>
      </span>
      {view.question === undefined ? null : (
        <span className="review-control">
          <span>Question: <strong>{view.question}</strong></span>
          <button type="button" className="secondary" onClick={() => setSearch({ review_question: undefined, review_at: undefined })}>
            All questions
          </button>
        </span>
      )}
      <span className="review-control">
        <label htmlFor="review-order">Order</label>
        <select
          id="review-order"
          value={view.order}
          onChange={(event) =>
            setSearch({ review_order: event.target.value === "least_agreement" ? undefined : event.target.value, review_at: undefined })}
        >
          <option value="least_agreement">Least agreement first</option>
          <option value="inserted_at">As inserted</option>
        </select>
      </span>
    </div>
  )
}

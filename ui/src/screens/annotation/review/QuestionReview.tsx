/**
 * One question of the record under review: every annotator's submitted answer side by side (their number key beside
 * each), the suggestion with its agent and score, the reviewer's own answer, a note, and the final answer once
 * settled (who settled it, from what, when). Drafts and discards are listed apart: they are not answers yet.
 */
import type { RefObject } from "react"
import type { Question } from "../../../../../src/domain/Question.js"
import type { DatasetRecord } from "../../../../../src/domain/Record.js"
import type { FinalAnswer } from "../../../../../src/domain/Review.js"
import { Answer } from "./Answer.js"
import { answerKey, REVIEW_KEYS } from "./keys.js"
import { OwnAnswer } from "./OwnAnswer.js"
import { ownStart, type Pick, samePick, suggestedValue, type SubmittedAnswer } from "./picks.js"

interface Props {
  readonly question: Question
  readonly record: DatasetRecord
  readonly answers: ReadonlyArray<SubmittedAnswer>
  readonly disagreeing: boolean
  readonly final: FinalAnswer | undefined
  readonly pick: Pick | undefined
  readonly note: string
  readonly problem: string | undefined
  readonly active: boolean
  readonly busy: boolean
  readonly nameOf: (id: string) => string
  readonly sectionRef: (node: HTMLElement | null) => void
  readonly noteRef: RefObject<HTMLTextAreaElement | null> | undefined
  readonly onActivate: () => void
  readonly onPick: (pick: Pick | undefined) => void
  readonly onNote: (note: string) => void
  readonly onUnsettle: () => void
}

const SOURCE_TEXT = {
  response: "an annotator’s answer",
  suggestion: "the suggestion",
  reviewer: "the reviewer’s own answer",
  agreement: "the annotators’ agreed answer"
} as const

const when = (date: Date) => date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })

const countText = (answers: number, disagreeing: boolean) =>
  answers === 0
    ? "No submitted answer."
    : answers === 1
    ? "One submitted answer: nothing to compare it with."
    : disagreeing
    ? `${answers} submitted answers, not all the same.`
    : `All ${answers} submitted answers agree.`

export const QuestionReview = (props: Props) => {
  const { answers, final, nameOf, pick, question, record } = props
  const id = `review-q-${question.id}`
  const suggestion = suggestedValue(record, question)
  const others = (record.responses ?? []).filter((r) => r.status !== "submitted" && r.values?.[question.name] !== undefined)
  const candidate = (key: string | undefined, label: string, valueId: string, chosen: Pick, value: unknown, extra?: string) => (
    <div className={samePick(pick, chosen) ? "review-candidate picked" : "review-candidate"} key={valueId}>
      <button
        type="button"
        role="radio"
        aria-checked={samePick(pick, chosen)}
        aria-describedby={valueId}
        aria-keyshortcuts={key}
        data-review-pick=""
        disabled={props.busy}
        onClick={() => props.onPick(chosen)}
      >
        {key === undefined ? null : <kbd aria-hidden="true">{key}</kbd>}
        <span className="review-user">{label}</span>
        {extra === undefined ? null : <span className="muted"> {extra}</span>}
      </button>
      <div id={valueId} className="review-value"><Answer question={question} record={record} value={value} /></div>
    </div>
  )
  const own = pick?.source === "reviewer"
  return (
    <section
      ref={props.sectionRef}
      className={`review-question${props.disagreeing ? " disagreement" : ""}${props.active ? " active" : ""}`}
      aria-labelledby={id}
      tabIndex={-1}
      onFocus={props.onActivate}
      onClick={props.onActivate}
    >
      <h3 id={id}>
        {question.title}{" "}
        {props.disagreeing
          ? <span className="badge review-disagree"><span aria-hidden="true">≠ </span>Disagreement</span>
          : answers.length > 1
          ? <span className="badge review-agree"><span aria-hidden="true">= </span>Agreement</span>
          : null}
        {final === undefined ? null : <span className="badge review-settled"><span aria-hidden="true">✓ </span>Settled</span>}
      </h3>
      <p className="muted review-count">{countText(answers.length, props.disagreeing)}</p>
      <div role="radiogroup" aria-label={`Final answer to ${question.title}`} className="review-candidates">
        {answers.map((answer, i) =>
          candidate(answerKey(i), nameOf(answer.userId), `${id}-${answer.userId}`, {
            source: "response",
            userId: answer.userId,
            value: answer.value
          }, answer.value)
        )}
        {suggestion === undefined ? null : candidate(
          REVIEW_KEYS.suggestion,
          "Suggestion",
          `${id}-suggestion`,
          { source: "suggestion", value: suggestion.value },
          suggestion.value,
          `by ${suggestion.agent ?? "an unnamed agent"}${typeof suggestion.score === "number" ? ` · score ${suggestion.score.toFixed(2)}` : ""}`
        )}
        <div className={own ? "review-candidate picked" : "review-candidate"}>
          <button
            type="button"
            role="radio"
            aria-checked={own}
            aria-keyshortcuts={REVIEW_KEYS.own}
            data-review-pick=""
            disabled={props.busy}
            onClick={() => props.onPick({ source: "reviewer", value: ownStart(pick, final) })}
          >
            <kbd aria-hidden="true">{REVIEW_KEYS.own}</kbd>
            <span className="review-user">Your own answer</span>
          </button>
        </div>
      </div>
      {own
        ? (
          <OwnAnswer
            question={question}
            record={record}
            value={pick.value}
            onChange={(value) => props.onPick({ source: "reviewer", value })}
          />
        )
        : null}
      {props.problem === undefined ? null : <p className="error" role="alert">{props.problem}</p>}
      {others.length === 0 ? null : (
        <p className="muted review-others">
          Not counted:{" "}
          {others.map((r, i) => (
            <span key={r.id}>
              {i === 0 ? "" : "; "}
              {nameOf(r.user_id)} ({r.status})
            </span>
          ))}
        </p>
      )}
      {answers.length === 0 && final === undefined && pick === undefined ? null : (
        <label className="review-note-input">
          <span>Note <kbd aria-hidden="true">{REVIEW_KEYS.note}</kbd></span>
          <textarea
            ref={props.noteRef}
            rows={1}
            value={props.note}
            maxLength={10_000}
            aria-keyshortcuts={REVIEW_KEYS.note}
            onChange={(event) => props.onNote(event.target.value)}
          />
        </label>
      )}
      {final === undefined ? null : (
        <div className="review-final" aria-label={`Final answer to ${question.title}`} role="group">
          <p className="review-final-head">
            <strong>Final answer</strong>, settled by {nameOf(final.settled_by)} from{" "}
            {final.source === "response" && final.source_user_id !== null
              ? `${nameOf(final.source_user_id)}’s answer`
              : SOURCE_TEXT[final.source]}, {when(final.updated_at)}
          </p>
          <div className="review-value"><Answer question={question} record={record} value={final.value} /></div>
          {final.note === null ? null : <p className="review-final-note">Note: {final.note}</p>}
          <button type="button" className="secondary" disabled={props.busy} onClick={props.onUnsettle}
            aria-keyshortcuts={REVIEW_KEYS.unsettle}>
            Unsettle <kbd aria-hidden="true">{REVIEW_KEYS.unsettle}</kbd>
          </button>
        </div>
      )}
    </section>
  )
}

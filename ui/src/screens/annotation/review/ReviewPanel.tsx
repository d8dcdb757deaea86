/**
 * Every annotator's response to one record, question by question, with disagreement marked where two or more
 * submitted answers differ and the count of annotators who agree (see `agreement.ts`).
 */
import type { Question } from "../../../../../src/domain/Question.js"
import type { DatasetRecord } from "../../../../../src/domain/Record.js"
import type { Response } from "../../../../../src/domain/Response.js"
import { recordAgreement } from "./agreement.js"
import "./review.css"

const STATUS_ORDER = { submitted: 0, draft: 1, discarded: 2 } as const

const optionText = (question: Question, value: unknown): string => {
  const settings = question.settings
  if ("options" in settings) {
    for (const option of settings.options) {
      if (option.value === value && "text" in option) return option.text
    }
  }
  return typeof value === "string" ? value : JSON.stringify(value)
}

const isRecordLike = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** One answer as a reader wants it: option texts, ranks in order, spans as label and the text they cover. */
export const Answer = (props: { readonly question: Question; readonly record: DatasetRecord; readonly value: unknown }) => {
  const { question, record, value } = props
  const settings = question.settings
  switch (settings.type) {
    case "multi_label_selection":
      return <span>{Array.isArray(value) ? value.map((v) => optionText(question, v)).join(", ") : String(value)}</span>
    case "ranking": {
      const items = Array.isArray(value) ? value.filter(isRecordLike) : []
      const ranked = [...items].sort((a, b) => Number(a["rank"]) - Number(b["rank"]))
      return (
        <ol className="review-ranking">
          {ranked.map((item) => (
            <li key={String(item["value"])}>
              <span className="muted">{String(item["rank"])}.</span> {optionText(question, item["value"])}
            </li>
          ))}
        </ol>
      )
    }
    case "span": {
      const source = record.fields[settings.field]
      const codePoints = typeof source === "string" ? Array.from(source) : []
      const spans = Array.isArray(value) ? value.filter(isRecordLike) : []
      return (
        <ul className="review-spans">
          {[...spans].sort((a, b) => Number(a["start"]) - Number(b["start"])).map((span) => (
            <li key={`${String(span["label"])}-${String(span["start"])}-${String(span["end"])}`}>
              <span className="review-span-label">{optionText(question, span["label"])}</span>{" "}
              “{codePoints.slice(Number(span["start"]), Number(span["end"])).join("")}”
            </li>
          ))}
        </ul>
      )
    }
    case "text":
      return <span className="review-text">{typeof value === "string" ? value : JSON.stringify(value)}</span>
    default:
      return <span>{optionText(question, value)}</span>
  }
}

interface Props {
  readonly record: DatasetRecord
  readonly questions: ReadonlyArray<Question>
  /** usernames by user id; a user not in it shows as their id */
  readonly names: ReadonlyMap<string, string>
}

export const ReviewPanel = (props: Props) => {
  const { names, questions, record } = props
  const nameOf = (id: string) => names.get(id) ?? id
  const responses: ReadonlyArray<Response> = [...(record.responses ?? [])].sort((a, b) =>
    STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || nameOf(a.user_id).localeCompare(nameOf(b.user_id))
  )
  const agreements = recordAgreement(questions, record)
  const disagreements = agreements.filter((a) => a.disagreement).length
  return (
    <section className="panel review-panel" aria-labelledby="review-title">
      <h2 id="review-title">Annotators’ responses</h2>
      {responses.length === 0 ? <p>No one has answered this record yet.</p> : (
        <>
          <ul className="review-statuses" aria-label="Response status by annotator">
            {responses.map((r) => (
              <li key={r.id}>
                <span className="review-user">{nameOf(r.user_id)}</span>{" "}
                <span className={`badge status-${r.status}`}>{r.status}</span>
              </li>
            ))}
          </ul>
          <p className="review-summary">
            {disagreements === 0
              ? "No disagreement between submitted answers."
              : `${disagreements} ${disagreements === 1 ? "question has" : "questions have"} a disagreement.`}
          </p>
        </>
      )}
      {agreements.map((agreement) => {
        const { question } = agreement
        const headingId = `review-q-${question.id}`
        const answers = responses.filter((r) => r.values?.[question.name] !== undefined)
        return (
          <section
            key={question.id}
            className={agreement.disagreement ? "review-question disagreement" : "review-question"}
            aria-labelledby={headingId}
          >
            <h3 id={headingId}>
              {question.title}{" "}
              {agreement.disagreement
                ? <span className="badge review-disagree"><span aria-hidden="true">≠ </span>Disagreement</span>
                : agreement.answered > 1
                ? <span className="badge review-agree"><span aria-hidden="true">= </span>Agreement</span>
                : null}
            </h3>
            <p className="muted review-count">
              {agreement.answered === 0
                ? "No submitted answer."
                : `${agreement.agreeing} of ${agreement.answered} submitted ${agreement.answered === 1 ? "answer" : "answers"} agree`}
            </p>
            {answers.length === 0 ? null : (
              <ul className="review-answers">
                {answers.map((r) => {
                  const value = r.values?.[question.name]?.value
                  // "differs" only against a strict majority: in a tie no answer is the odd one out.
                  const [first, second] = agreement.groups
                  const majority = first !== undefined && second !== undefined && first.users.length > second.users.length
                  const odd = majority && r.status === "submitted" && !first.users.includes(r.user_id) &&
                    r.values?.[question.name]?.value != null
                  return (
                    <li key={r.id} className={odd ? "review-answer odd" : "review-answer"}>
                      <span className="review-user">{nameOf(r.user_id)}</span>
                      {r.status === "submitted" ? null : <span className="muted"> ({r.status}, not counted)</span>}
                      {odd ? <span className="review-odd-note"> differs</span> : null}
                      <div className="review-value"><Answer question={question} record={record} value={value} /></div>
                    </li>
                  )
                })}
              </ul>
            )}
          </section>
        )
      })}
    </section>
  )
}

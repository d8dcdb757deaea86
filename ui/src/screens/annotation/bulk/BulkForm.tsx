/**
 * The one form of the bulk view: the dataset's questions except span questions (a span belongs to one record's
 * text, so it cannot be given to many at once), with Discard, Save as draft and Submit for every selected record. No
 * suggestion is pre-filled: the records differ, so there is none to show.
 */
import type { Question } from "../../../../../src/domain/Question.js"
import type { FormValues } from "../questions/answers.js"
import { Choice } from "../questions/Choice.js"
import { Ranking } from "../questions/Ranking.js"
import { TextAnswer } from "../questions/TextAnswer.js"

interface Props {
  readonly questions: ReadonlyArray<Question>
  readonly spanQuestions: ReadonlyArray<Question>
  readonly values: FormValues
  readonly errors: Readonly<Record<string, string>>
  /** what the buttons apply to, e.g. "3 selected records" */
  readonly target: string
  readonly disabled: boolean
  /** what a submit will not do here (a required span question cannot be answered in bulk) */
  readonly submitNote: string | undefined
  readonly onChange: (name: string, value: unknown) => void
  readonly onSave: (status: "submitted" | "draft" | "discarded") => void
}

export const BulkForm = (props: Props) => (
  <form
    className="question-form bulk-form"
    aria-label="Answer the selected records"
    onSubmit={(event) => {
      event.preventDefault()
      props.onSave("submitted")
    }}
  >
    <h2 className="bulk-form-title">Answer {props.target}</h2>
    {props.questions.map((question) => {
      const titleId = `bulk-q-${question.id}-title`
      const errorId = `bulk-q-${question.id}-error`
      const error = props.errors[question.name]
      const common = {
        question,
        value: props.values[question.name],
        suggestion: undefined,
        labelledBy: titleId,
        onChange: (next: unknown) => props.onChange(question.name, next)
      }
      const kind = question.settings.type
      return (
        <section key={question.id} className="question" aria-labelledby={titleId}
          aria-describedby={error === undefined ? undefined : errorId}>
          <h3 id={titleId}>
            {question.title}
            {question.required ? <span className="required" aria-label="required">*</span> : null}
          </h3>
          {question.description === null ? null : <p className="description">{question.description}</p>}
          {kind === "text" ? <TextAnswer {...common} /> : null}
          {kind === "ranking" ? <Ranking {...common} /> : null}
          {kind === "label_selection" || kind === "multi_label_selection" || kind === "rating" ? <Choice {...common} /> : null}
          {error === undefined ? null : <p id={errorId} className="error" role="alert">{error}</p>}
        </section>
      )
    })}
    {props.spanQuestions.length === 0 ? null : (
      <p className="notice bulk-span-note">
        {props.spanQuestions.map((q) => q.title).join(", ")}: span questions are answered one record at a time in the
        focus view, because a span marks a place in one record's text.
      </p>
    )}
    {props.submitNote === undefined ? null : <p className="notice">{props.submitNote}</p>}
    <div className="actions">
      <button type="button" className="secondary" disabled={props.disabled} onClick={() => props.onSave("discarded")}>
        Discard
      </button>
      <button type="button" className="secondary" disabled={props.disabled} onClick={() => props.onSave("draft")}>
        Save as draft
      </button>
      <button type="submit" className="primary" disabled={props.disabled}>
        Submit
      </button>
    </div>
  </form>
)

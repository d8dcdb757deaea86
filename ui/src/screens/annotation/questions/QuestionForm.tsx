/** The question form: one block per question (the current one outlined), then Discard / Save draft / Submit. */
import type { MutableRefObject } from "react"
import type { Question } from "../../../../../src/domain/Question.js"
import type { DatasetRecord } from "../../../../../src/domain/Record.js"
import { KEYS } from "../../../keyboard/shortcuts.js"
import type { Span } from "../span/offsets.js"
import { type FormValues, suggestionFor } from "./answers.js"
import { Choice } from "./Choice.js"
import { Ranking } from "./Ranking.js"
import { SpanLabels } from "./SpanLabels.js"
import { SuggestionLine } from "./Suggested.js"
import { TextAnswer } from "./TextAnswer.js"

export interface QuestionFormProps {
  readonly questions: ReadonlyArray<Question>
  readonly record: DatasetRecord
  readonly values: FormValues
  readonly errors: Readonly<Record<string, string>>
  readonly formError: string | undefined
  readonly active: number
  readonly busy: boolean
  readonly spanLabels: Readonly<Record<string, string>>
  readonly excerpt: (question: Question) => (span: Span) => string
  readonly sectionRefs: MutableRefObject<Array<HTMLElement | null>>
  readonly onActivate: (index: number) => void
  readonly onChange: (name: string, value: unknown) => void
  readonly onSpanLabel: (name: string, label: string) => void
  readonly onEnter: (index: number) => void
  readonly onSubmit: () => void
  readonly onDraft: () => void
  readonly onDiscard: () => void
}

export const QuestionForm = (props: QuestionFormProps) => {
  const { questions, record, values } = props
  return (
    <form
      className="question-form"
      aria-label="Questions"
      onSubmit={(event) => {
        event.preventDefault()
        props.onSubmit()
      }}
    >
      {questions.map((question, index) => {
        const titleId = `q-${question.id}-title`
        const errorId = `q-${question.id}-error`
        const suggestion = suggestionFor(record, question)
        const error = props.errors[question.name]
        const value = values[question.name]
        const onChange = (next: unknown) => props.onChange(question.name, next)
        const common = { question, value, suggestion, labelledBy: titleId, onChange }
        return (
          <section
            key={question.id}
            ref={(node) => void (props.sectionRefs.current[index] = node)}
            className={index === props.active ? "question active" : "question"}
            tabIndex={-1}
            aria-labelledby={titleId}
            aria-describedby={error === undefined ? undefined : errorId}
            onFocus={() => props.onActivate(index)}
            onClick={() => props.onActivate(index)}
          >
            <h3 id={titleId}>
              {question.title}
              {question.required ? <span className="required" aria-label="required">*</span> : null}
            </h3>
            {question.description === null ? null : <p className="description">{question.description}</p>}
            {suggestion === undefined ? null : <SuggestionLine suggestion={suggestion} />}
            {question.settings.type === "text" ? <TextAnswer {...common} /> : null}
            {question.settings.type === "ranking" ? <Ranking {...common} /> : null}
            {question.settings.type === "span"
              ? (
                <SpanLabels
                  {...common}
                  excerpt={props.excerpt(question)}
                  activeLabel={props.spanLabels[question.name]}
                  onLabel={(label) => props.onSpanLabel(question.name, label)}
                  onEnter={() => props.onEnter(index)}
                />
              )
              : null}
            {question.settings.type === "label_selection" || question.settings.type === "multi_label_selection" ||
                question.settings.type === "rating"
              ? <Choice {...common} />
              : null}
            {error === undefined ? null : <p id={errorId} className="error" role="alert">{error}</p>}
          </section>
        )
      })}
      {props.formError === undefined ? null : <p className="error" role="alert">{props.formError}</p>}
      <div className="actions">
        <button type="button" className="secondary" disabled={props.busy} onClick={props.onDiscard} aria-keyshortcuts="Backspace">
          Discard <kbd aria-hidden="true">{KEYS.discard}</kbd>
        </button>
        <button type="button" className="secondary" disabled={props.busy} onClick={props.onDraft} aria-keyshortcuts="Control+S">
          Save draft <kbd aria-hidden="true">{KEYS.draft}</kbd>
        </button>
        <button type="submit" className="primary" disabled={props.busy} aria-keyshortcuts="Enter">
          Submit <kbd aria-hidden="true">{KEYS.submit}</kbd>
        </button>
      </div>
    </form>
  )
}

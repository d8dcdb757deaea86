/**
 * The reviewer's own final answer to one question, with the focus view's inputs: option buttons, ranks, a text box,
 * and for spans the field's text in the span editor with the labels beside it. It starts from the answer picked
 * before (or the final answer), so correcting one annotator's spans is a few marks, not all of them again.
 */
import { useState } from "react"
import type { Question } from "../../../../../src/domain/Question.js"
import type { DatasetRecord } from "../../../../../src/domain/Record.js"
import { Choice } from "../questions/Choice.js"
import { Ranking } from "../questions/Ranking.js"
import { spanValue } from "../questions/SpanLabels.js"
import { TextAnswer } from "../questions/TextAnswer.js"
import { SpanEditor } from "../span/SpanEditor.js"

interface Props {
  readonly question: Question
  readonly record: DatasetRecord
  readonly value: unknown
  readonly onChange: (value: unknown) => void
}

export const OwnAnswer = ({ onChange, question, record, value }: Props) => {
  const labelledBy = `own-${question.id}`
  const settings = question.settings
  const common = { question, value, suggestion: undefined, labelledBy, onChange }
  return (
    <div className="review-own">
      <p id={labelledBy} className="review-own-title">Your answer to {question.title}</p>
      {settings.type === "text" ? <TextAnswer {...common} /> : null}
      {settings.type === "ranking" ? <Ranking {...common} /> : null}
      {settings.type === "label_selection" || settings.type === "multi_label_selection" || settings.type === "rating"
        ? <Choice {...common} />
        : null}
      {settings.type === "span" ? <OwnSpans question={question} record={record} value={value} onChange={onChange} /> : null}
    </div>
  )
}

const OwnSpans = ({ onChange, question, record, value }: Props) => {
  const settings = question.settings
  const [label, setLabel] = useState<string | undefined>(settings.type === "span" ? settings.options[0]?.value : undefined)
  if (settings.type !== "span") return null
  const text = record.fields[settings.field]
  if (typeof text !== "string") return <p className="muted">The field {settings.field} has no text to mark.</p>
  return (
    <>
      <div role="radiogroup" aria-labelledby={`own-${question.id}`} className="options">
        {settings.options.map((option, index) => (
          <button
            key={option.value}
            type="button"
            role="radio"
            aria-checked={label === option.value}
            className={`option label-chip label-${index % 10}`}
            onClick={() => setLabel(option.value)}
          >
            {option.text}
          </button>
        ))}
      </div>
      <SpanEditor
        text={text}
        title={`${settings.field}, your spans`}
        spans={spanValue(value)}
        labels={settings.options.map((o, i) => ({ value: o.value, text: o.text, color: i % 10 }))}
        activeLabel={label}
        allowOverlapping={settings.allow_overlapping}
        onChange={(spans) => onChange(spans.length === 0 ? undefined : spans)}
      />
    </>
  )
}

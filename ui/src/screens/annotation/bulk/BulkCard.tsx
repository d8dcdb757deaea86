/**
 * One record in the bulk list: its checkbox, its status, its fields (compact until expanded), span answers (or,
 * without one, the suggested spans) drawn read-only in their labels' colours, and the reason a write failed.
 */
import { memo, useState } from "react"
import type { Field } from "../../../../../src/domain/Field.js"
import type { RecordId, UserId } from "../../../../../src/domain/Ids.js"
import type { Question } from "../../../../../src/domain/Question.js"
import type { DatasetRecord } from "../../../../../src/domain/Record.js"
import { myResponse } from "../../../data/records.js"
import { FieldValue } from "../fields/FieldView.js"
import { spanValue } from "../questions/SpanLabels.js"
import { SpanText } from "./SpanText.js"

interface Props {
  readonly record: DatasetRecord
  readonly fields: ReadonlyArray<Field>
  /** the dataset's span questions, with each label's colour */
  readonly spanQuestions: ReadonlyArray<{ readonly question: Question; readonly colors: ReadonlyMap<string, number> }>
  readonly me: UserId | undefined
  readonly position: number
  readonly selected: boolean
  readonly error: string | undefined
  readonly onToggle: (id: RecordId) => void
}

const spansOf = (record: DatasetRecord, me: UserId | undefined, question: Question) => {
  const answered = myResponse(record, me)?.values?.[question.name]
  if (answered !== undefined) return { spans: spanValue(answered.value), suggested: false }
  const suggestion = record.suggestions?.find((s) => s.question_id === question.id)
  return { spans: spanValue(suggestion?.value), suggested: suggestion !== undefined }
}

export const BulkCard = memo(function BulkCard(props: Props) {
  const { fields, me, record } = props
  const [expanded, setExpanded] = useState(false)
  const status = myResponse(record, me)?.status ?? "pending"
  const checkboxId = `bulk-select-${record.id}`
  const bodyId = `bulk-body-${record.id}`
  return (
    <li className={props.selected ? "bulk-card selected" : "bulk-card"} data-record-id={record.id}>
      <div className="bulk-card-head">
        <input
          id={checkboxId}
          type="checkbox"
          checked={props.selected}
          onChange={() => props.onToggle(record.id)}
        />
        <label htmlFor={checkboxId}>Select record {props.position}</label>
        <span className={`badge status-${status}`}>{status}</span>
        <button
          type="button"
          className="link-button bulk-expand"
          aria-expanded={expanded}
          aria-controls={bodyId}
          onClick={() => setExpanded((e) => !e)}
        >
          {expanded ? "Collapse" : "Expand"}
          <span className="visually-hidden"> record {props.position}</span>
        </button>
      </div>
      {/* Collapsed, the body is clipped: what it holds (links, a custom field's frame) stays out of the tab order
          until Expand, so the keyboard never lands on a control that cannot be seen. */}
      <div id={bodyId} className={expanded ? "bulk-card-body" : "bulk-card-body compact"} inert={!expanded}>
        {fields.map((field) => {
          const value = record.fields[field.name]
          const span = props.spanQuestions.find((s) => s.question.settings.type === "span" && s.question.settings.field === field.name)
          const drawn = span !== undefined && typeof value === "string" ? spansOf(record, me, span.question) : undefined
          return (
            <section key={field.id} className="bulk-field" aria-label={field.title}>
              <h3 className="field-title">
                {field.title}
                {drawn?.suggested === true ? <span className="muted"> · suggested spans</span> : null}
              </h3>
              {span !== undefined && drawn !== undefined && typeof value === "string"
                ? <SpanText text={value} spans={drawn.spans} colors={span.colors} />
                : <FieldValue field={field} record={record} />}
            </section>
          )
        })}
      </div>
      {props.error === undefined ? null : <p className="error" role="alert">Not saved: {props.error}</p>}
    </li>
  )
})

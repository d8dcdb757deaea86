/** The record: one block per field, with the span editor in place of a field that a span question annotates. */
import { useMemo } from "react"
import type { Field } from "../../../../src/domain/Field.js"
import type { MetadataProperty } from "../../../../src/domain/MetadataProperty.js"
import type { Question } from "../../../../src/domain/Question.js"
import type { DatasetRecord } from "../../../../src/domain/Record.js"
import { useLocation } from "../../router.js"
import { FieldValue } from "./fields/FieldView.js"
import { FindSimilar } from "./filters/FindSimilar.js"
import { searchWords } from "./filters/highlight.js"
import { RecordMetadata } from "./RecordMetadata.js"
import { spanValue } from "./questions/SpanLabels.js"
import { SpanEditor } from "./span/SpanEditor.js"

interface Props {
  readonly record: DatasetRecord
  readonly fields: ReadonlyArray<Field>
  readonly questions: ReadonlyArray<Question>
  /** The dataset's metadata properties the caller sees, for their titles and order. */
  readonly metadataProperties?: ReadonlyArray<MetadataProperty> | undefined
  readonly values: Readonly<Record<string, unknown>>
  readonly spanLabels: Readonly<Record<string, string>>
  readonly status: string
  readonly position: string
  readonly editorRefs: { current: Record<string, HTMLDivElement | null> }
  readonly onChange: (name: string, value: unknown) => void
  readonly onEditorFocus: (questionName: string) => void
  readonly onEditorLeave: (questionName: string) => void
}

export const RecordCard = (props: Props) => {
  const { fields, questions, record } = props
  // The words of the text search, marked in the span editor as FieldValue marks them in the other fields.
  const q = useLocation().search.get("_search") ?? ""
  const words = useMemo(() => searchWords(q), [q])
  return (
    <article className="record-card" aria-label={`Record ${props.position}`}>
      <header className="record-header">
        <span className="position">{props.position}</span>
        <span className={`badge status-${props.status}`}>{props.status}</span>
        <FindSimilar datasetId={record.dataset_id} recordId={record.id} />
      </header>
      {fields.map((field) => {
        const spanQuestion = questions.find((q) => q.settings.type === "span" && q.settings.field === field.name)
        const value = record.fields[field.name]
        return (
          <section key={field.id} className="field" aria-labelledby={`f-${field.id}`}>
            <h2 id={`f-${field.id}`} className="field-title">{field.title}</h2>
            {spanQuestion !== undefined && spanQuestion.settings.type === "span" && typeof value === "string"
              ? (
                <SpanEditor
                  text={value}
                  title={field.title}
                  spans={spanValue(props.values[spanQuestion.name])}
                  labels={spanQuestion.settings.options.map((o, i) => ({ value: o.value, text: o.text, color: i % 10 }))}
                  activeLabel={props.spanLabels[spanQuestion.name]}
                  allowOverlapping={spanQuestion.settings.allow_overlapping}
                  onChange={(spans) => props.onChange(spanQuestion.name, spans.length === 0 ? undefined : spans)}
                  onFocus={() => props.onEditorFocus(spanQuestion.name)}
                  onLeave={() => props.onEditorLeave(spanQuestion.name)}
                  editorRef={(node) => void (props.editorRefs.current[spanQuestion.name] = node)}
                  highlight={words}
                />
              )
              : <FieldValue field={field} record={record} />}
          </section>
        )
      })}
      <RecordMetadata metadata={record.metadata} properties={props.metadataProperties ?? []} />
    </article>
  )
}

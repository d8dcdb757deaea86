/** One answer as a reader wants it: option texts, ranks in order, spans as their label and the text they cover. */
import type { Question } from "../../../../../src/domain/Question.js"
import type { DatasetRecord } from "../../../../../src/domain/Record.js"

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

/** A text question. Shift+Enter on the question puts the caret here; Escape leaves. */
import type { Question } from "../../../../../src/domain/Question.js"

interface Props {
  readonly question: Question
  readonly value: unknown
  readonly labelledBy: string
  readonly onChange: (value: unknown) => void
}

export const TextAnswer = ({ labelledBy, onChange, question, value }: Props) => (
  <textarea
    className="text-answer"
    data-enter-target=""
    aria-labelledby={labelledBy}
    rows={3}
    placeholder={question.settings.type === "text" && question.settings.use_markdown ? "Markdown allowed" : undefined}
    value={typeof value === "string" ? value : ""}
    onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value)}
  />
)

/** The form's side of a span question: the current label (number keys pick it) and the spans marked so far. */
import type { Question } from "../../../../../src/domain/Question.js"
import type { Suggestion } from "../../../../../src/domain/Suggestion.js"
import { pickKey } from "../../../keyboard/shortcuts.js"
import type { Span } from "../span/offsets.js"
import { SuggestedMark } from "./Suggested.js"

interface Props {
  readonly question: Question
  readonly value: unknown
  /** the text a span covers */
  readonly excerpt: (span: Span) => string
  readonly suggestion: Suggestion | undefined
  readonly labelledBy: string
  readonly activeLabel: string | undefined
  readonly onLabel: (label: string) => void
  readonly onChange: (value: unknown) => void
  readonly onEnter: () => void
}

export const spanValue = (value: unknown): ReadonlyArray<Span> => (Array.isArray(value) ? value as ReadonlyArray<Span> : [])

export const SpanLabels = (props: Props) => {
  const { question, suggestion } = props
  const settings = question.settings
  if (settings.type !== "span") return null
  const spans = spanValue(props.value)
  const suggested = spanValue(suggestion?.value)
  const suggestedIndex = (span: Span) =>
    suggested.findIndex((s) => s.start === span.start && s.end === span.end && s.label === span.label)
  const textOf = new Map(settings.options.map((o) => [o.value, o.text]))
  return (
    <div className="span-question">
      <div role="radiogroup" aria-labelledby={props.labelledBy} className="options">
        {settings.options.map((option, index) => {
          const key = pickKey(index)
          return (
            <button
              key={option.value}
              type="button"
              role="radio"
              aria-checked={props.activeLabel === option.value}
              aria-keyshortcuts={key}
              className={`option label-chip label-${index % 10}`}
              onClick={() => props.onLabel(option.value)}
            >
              {key === undefined ? null : <kbd aria-hidden="true">{key}</kbd>}
              <span>{option.text}</span>
            </button>
          )
        })}
      </div>
      <p className="hint">
        Select text in <strong>{settings.field}</strong> to mark it (hold Shift for single characters), or{" "}
        <button type="button" className="link-button" onClick={props.onEnter}>
          use the keyboard <kbd>Shift+Enter</kbd>
        </button>.
      </p>
      {spans.length === 0 ? null : (
        <ul className="span-list" aria-label={`Spans of ${question.title}`}>
          {spans.map((span, i) => {
            const hint = suggestedIndex(span)
            return (
            <li key={`${span.start}-${span.end}-${span.label}`}>
              <span className="span-label">{textOf.get(span.label) ?? span.label}</span>{" "}
              <q>{props.excerpt(span)}</q>{" "}
              {suggestion !== undefined && hint !== -1 ? <SuggestedMark suggestion={suggestion} index={hint} /> : null}
              <button
                type="button"
                className="link-button"
                aria-label={`Remove ${span.label} “${props.excerpt(span)}”`}
                onClick={() => props.onChange(spans.length === 1 ? undefined : spans.filter((_, j) => j !== i))}
              >
                Remove
              </button>
            </li>
            )
          })}
        </ul>
      )}
    </div>
  )
}

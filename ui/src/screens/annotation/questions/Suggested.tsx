import type { Suggestion } from "../../../../../src/domain/Suggestion.js"

const scoreText = (score: Suggestion["score"], index?: number) => {
  const value = Array.isArray(score) ? (index === undefined ? undefined : score[index]) : score
  return value === undefined || value === null ? "" : ` · ${value.toFixed(2)}`
}

/** The sparkle on a suggested option; the tooltip and the accessible text name the agent and score. */
export const SuggestedMark = (props: { readonly suggestion: Suggestion; readonly index?: number }) => {
  const text = `Suggested by ${props.suggestion.agent ?? "an unnamed agent"}${scoreText(props.suggestion.score, props.index)}`
  return (
    <span className="suggested" title={text}>
      <span aria-hidden="true">✦</span>
      <span className="visually-hidden">{text}</span>
    </span>
  )
}

/** One line under a question's title: who suggested, and how sure. */
export const SuggestionLine = (props: { readonly suggestion: Suggestion }) => (
  <p className="suggestion-line">
    <span aria-hidden="true">✦ </span>
    Suggested by <strong>{props.suggestion.agent ?? "an unnamed agent"}</strong>
    {typeof props.suggestion.score === "number" ? <> · score {props.suggestion.score.toFixed(2)}</> : null}
  </p>
)

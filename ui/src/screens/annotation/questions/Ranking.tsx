/** A ranking question: every option gets a rank (ties allowed); number keys rank the options in turn. */
import type { Question } from "../../../../../src/domain/Question.js"
import type { Suggestion } from "../../../../../src/domain/Suggestion.js"
import { rankItems } from "./pick.js"
import { SuggestedMark } from "./Suggested.js"

interface Props {
  readonly question: Question
  readonly value: unknown
  readonly suggestion: Suggestion | undefined
  readonly labelledBy: string
  readonly onChange: (value: unknown) => void
}

export const Ranking = ({ labelledBy, onChange, question, suggestion, value }: Props) => {
  const items = rankItems(question, value)
  const options = question.settings.type === "ranking" ? question.settings.options : []
  const suggested = new Map(
    (Array.isArray(suggestion?.value) ? suggestion.value as ReadonlyArray<{ value: string; rank: number | null }> : [])
      .map((item, index) => [item.value, { rank: item.rank, index }])
  )
  const setRank = (optionValue: string, rank: number | null) => {
    const next = items.map((item) => (item.value === optionValue ? { ...item, rank } : item))
    onChange(next.some((item) => item.rank !== null) ? next : undefined)
  }
  return (
    <div className="ranking">
      <ol className="rank-list" aria-labelledby={labelledBy}>
        {options.map((option) => {
          const rank = items.find((i) => i.value === option.value)?.rank ?? null
          const id = `rank-${question.id}-${option.value}`
          const hint = suggested.get(option.value)
          return (
            <li key={option.value}>
              <label htmlFor={id}>{option.text}</label>
              {suggestion !== undefined && hint !== undefined ? (
                <span className="muted">
                  <SuggestedMark suggestion={suggestion} index={hint.index} /> {hint.rank ?? "–"}
                </span>
              ) : null}
              <select
                id={id}
                value={rank === null ? "" : String(rank)}
                onChange={(e) => setRank(option.value, e.target.value === "" ? null : Number(e.target.value))}
              >
                <option value="">–</option>
                {options.map((_, i) => <option key={i} value={String(i + 1)}>{i + 1}</option>)}
              </select>
            </li>
          )
        })}
      </ol>
      {items.some((i) => i.rank !== null) ? (
        <button type="button" className="link-button" onClick={() => onChange(undefined)}>Clear ranks</button>
      ) : null}
    </div>
  )
}

/** Filters on suggestions, per question: value (its options), agent (those seen for it), score range (0–1). */
import type { Question } from "../../../../../src/domain/Question.js"
import type { SuggestionFilter } from "../../../data/search.js"
import { isSuggestionActive } from "../../../data/search.js"
import { useSynced } from "./useSynced.js"
import { type Bounds, Checks, RangeInputs } from "./Checks.js"
import { filterableValues } from "./options.js"

interface Props {
  readonly questions: ReadonlyArray<Question>
  /** Suggestion agents by question name (`…/records/search/suggestions/options`). */
  readonly agents: Readonly<Record<string, ReadonlyArray<string>>>
  readonly filters: Readonly<Record<string, SuggestionFilter>>
  readonly onApply: (filters: Readonly<Record<string, SuggestionFilter>>) => void
}

const compact = (filter: SuggestionFilter): SuggestionFilter => ({
  ...(filter.values === undefined || filter.values.length === 0 ? {} : { values: filter.values }),
  ...(filter.agents === undefined || filter.agents.length === 0 ? {} : { agents: filter.agents }),
  ...(filter.score === undefined || (filter.score.ge === undefined && filter.score.le === undefined)
    ? {}
    : { score: filter.score })
})

export const SuggestionFilters = (props: Props) => {
  const questions = props.questions.filter((q) => (props.agents[q.name]?.length ?? 0) > 0)
  const [draft, setDraft] = useSynced(props.filters)
  if (questions.length === 0) return null
  const count = Object.keys(props.filters).length
  const update = (name: string, change: SuggestionFilter) => {
    const { [name]: old, ...rest } = draft
    const next = compact({ ...old, ...change })
    setDraft(isSuggestionActive(next) ? { ...rest, [name]: next } : rest)
  }
  return (
    <details className="filter-panel">
      <summary>Suggestions{count === 0 ? "" : ` (${count})`}</summary>
      <form
        aria-label="Filter by suggestions"
        onSubmit={(event) => {
          event.preventDefault()
          props.onApply(draft)
        }}
      >
        {questions.map((question) => {
          const current = draft[question.name] ?? {}
          const values = filterableValues(question)
          return (
            <fieldset key={question.id} className="filter suggestion-filter">
              <legend>{question.title}</legend>
              {values.length === 0 ? null : (
                <Checks legend="Suggested value" options={values} chosen={current.values ?? []}
                  onChange={(chosen) => update(question.name, { values: chosen })} />
              )}
              <Checks
                legend="Agent"
                options={(props.agents[question.name] ?? []).map((agent) => ({ value: agent, text: agent }))}
                chosen={current.agents ?? []}
                onChange={(chosen) => update(question.name, { agents: chosen.map(String) })}
              />
              <RangeInputs legend="Score" bounds={current.score ?? {}} min={0} max={1} step={0.01}
                onChange={(score: Bounds) => update(question.name, { score })} />
            </fieldset>
          )
        })}
        <div className="row">
          <button type="submit" className="primary">Apply suggestion filters</button>
          <button type="button" className="secondary" onClick={() => {
            setDraft({})
            props.onApply({})
          }}>
            Clear
          </button>
        </div>
      </form>
    </details>
  )
}

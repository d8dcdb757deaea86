/**
 * Filters on the caller's own answers: label, multi-label and rating values (the answers the engines index,
 * as in Argilla; text, ranking and span answers are not filterable). Applied with the form's button.
 */
import type { Question } from "../../../../../src/domain/Question.js"
import type { ValueFilter } from "../../../data/search.js"
import { useSynced } from "./useSynced.js"
import { Checks } from "./Checks.js"
import { filterableValues } from "./options.js"

interface Props {
  readonly questions: ReadonlyArray<Question>
  readonly filters: Readonly<Record<string, ValueFilter>>
  readonly onApply: (filters: Readonly<Record<string, ValueFilter>>) => void
}

export const ResponseFilters = (props: Props) => {
  const questions = props.questions.filter((q) => filterableValues(q).length > 0)
  const [draft, setDraft] = useSynced(props.filters)
  if (questions.length === 0) return null
  const count = Object.keys(props.filters).length
  return (
    <details className="filter-panel">
      <summary>My responses{count === 0 ? "" : ` (${count})`}</summary>
      <form
        aria-label="Filter by my responses"
        onSubmit={(event) => {
          event.preventDefault()
          props.onApply(draft)
        }}
      >
        {questions.map((question) => {
          const current = draft[question.name]
          return (
            <Checks
              key={question.id}
              legend={question.title}
              options={filterableValues(question)}
              chosen={current?.kind === "terms" ? current.values : []}
              onChange={(values) => {
                const { [question.name]: _old, ...rest } = draft
                setDraft(values.length === 0 ? rest : { ...rest, [question.name]: { kind: "terms", values } })
              }}
            />
          )
        })}
        <div className="row">
          <button type="submit" className="primary">Apply response filters</button>
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

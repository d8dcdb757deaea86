/** Every active sort key and filter as a chip with its own remove button. */
import type { QueueQuery, ValueFilter } from "../../../data/search.js"
import { isSuggestionActive, sortKeyId } from "../../../data/search.js"
import { type SortOption, sortLabel } from "./options.js"

export interface Chip {
  readonly id: string
  readonly text: string
  readonly remove: () => QueueQuery
}

const range = (b: { readonly ge?: number | undefined; readonly le?: number | undefined }) =>
  b.ge !== undefined && b.le !== undefined ? `${b.ge}–${b.le}` : b.ge !== undefined ? `≥ ${b.ge}` : `≤ ${b.le}`

const describe = (filter: ValueFilter) => (filter.kind === "terms" ? filter.values.map(String).join(", ") : range(filter))

const without = <A,>(record: Readonly<Record<string, A>> | undefined, key: string): Readonly<Record<string, A>> =>
  Object.fromEntries(Object.entries(record ?? {}).filter(([k]) => k !== key))

/** The chips of a view, each with the view it leaves when removed. */
export const chipsOf = (
  query: QueueQuery,
  titles: { readonly metadata: Readonly<Record<string, string>>; readonly questions: Readonly<Record<string, string>> },
  sortOptions: ReadonlyArray<SortOption>
): ReadonlyArray<Chip> => {
  const question = (name: string) => titles.questions[name] ?? name
  const sort = query.sort ?? []
  return [
    ...sort.map((s) => ({
      id: `sort:${sortKeyId(s.key)}`,
      text: `Sort: ${sortLabel(sortOptions, s.key)} ${s.order === "asc" ? "↑" : "↓"}`,
      remove: () => ({ ...query, sort: sort.filter((t) => t !== s) })
    })),
    ...(query.recordStatus === undefined ? [] : [{
      id: "record-status",
      text: `Record status: ${query.recordStatus}`,
      remove: () => ({ ...query, recordStatus: undefined })
    }]),
    ...Object.entries(query.metadata).map(([name, filter]) => ({
      id: `metadata:${name}`,
      text: `${titles.metadata[name] ?? name}: ${describe(filter)}`,
      remove: () => ({ ...query, metadata: without(query.metadata, name) })
    })),
    ...Object.entries(query.responses ?? {}).map(([name, filter]) => ({
      id: `response:${name}`,
      text: `My response, ${question(name)}: ${describe(filter)}`,
      remove: () => ({ ...query, responses: without(query.responses, name) })
    })),
    ...Object.entries(query.suggestions ?? {}).flatMap(([name, filter]) => {
      const others = without(query.suggestions, name)
      const drop = (part: "values" | "agents" | "score") => () => {
        const { [part]: _dropped, ...rest } = filter
        return { ...query, suggestions: isSuggestionActive(rest) ? { ...others, [name]: rest } : others }
      }
      const { agents, score, values } = filter
      return [
        ...(values === undefined ? [] : [{
          id: `suggestion:${name}:value`,
          text: `Suggested ${question(name)}: ${values.map(String).join(", ")}`,
          remove: drop("values")
        }]),
        ...(agents === undefined ? [] : [{
          id: `suggestion:${name}:agent`,
          text: `Suggestion agent, ${question(name)}: ${agents.join(", ")}`,
          remove: drop("agents")
        }]),
        ...(score === undefined ? [] : [{
          id: `suggestion:${name}:score`,
          text: `Suggestion score, ${question(name)}: ${range(score)}`,
          remove: drop("score")
        }])
      ]
    })
  ]
}

export const Chips = (props: { readonly chips: ReadonlyArray<Chip>; readonly onChange: (query: QueueQuery) => void }) =>
  props.chips.length === 0 ? null : (
    <ul className="chips" aria-label="Active sort and filters">
      {props.chips.map((chip) => (
        <li key={chip.id} className="chip">
          <span>{chip.text}</span>
          <button type="button" className="chip-remove" aria-label={`Remove ${chip.text}`}
            onClick={() => props.onChange(chip.remove())}>
            <span aria-hidden="true">×</span>
          </button>
        </li>
      ))}
    </ul>
  )

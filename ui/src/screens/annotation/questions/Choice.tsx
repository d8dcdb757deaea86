/** Label, multi-label and rating questions: a row of options, each with its number key printed on it. */
import { useState } from "react"
import type { Question } from "../../../../../src/domain/Question.js"
import type { Suggestion } from "../../../../../src/domain/Suggestion.js"
import { pickKey } from "../../../keyboard/shortcuts.js"
import { orderedOptions, pick } from "./pick.js"
import { SuggestedMark } from "./Suggested.js"

interface Props {
  readonly question: Question
  readonly value: unknown
  readonly suggestion: Suggestion | undefined
  readonly labelledBy: string
  readonly onChange: (value: unknown) => void
}

interface Item {
  readonly value: string | number
  readonly text: string
  readonly description: string | null
}

const itemsOf = (question: Question, suggestion: Suggestion | undefined): ReadonlyArray<Item> =>
  question.settings.type === "rating"
    ? question.settings.options.map((o) => ({ value: o.value, text: String(o.value), description: null }))
    : orderedOptions(question, suggestion)

const isSelected = (value: unknown, item: Item) => (Array.isArray(value) ? value.includes(item.value) : value === item.value)

const suggestedIndex = (suggestion: Suggestion | undefined, item: Item): number | undefined => {
  if (suggestion === undefined) return undefined
  if (Array.isArray(suggestion.value)) {
    const i = suggestion.value.indexOf(item.value)
    return i === -1 ? undefined : i
  }
  return suggestion.value === item.value ? 0 : undefined
}

export const Choice = ({ labelledBy, onChange, question, suggestion, value }: Props) => {
  const multi = question.settings.type === "multi_label_selection"
  const items = itemsOf(question, suggestion)
  const visible = "visible_options" in question.settings ? question.settings.visible_options : null
  const [expanded, setExpanded] = useState(false)
  const [filter, setFilter] = useState("")
  const needle = filter.trim().toLowerCase()
  const shown = items
    .map((item, index) => ({ item, index }))
    .filter(({ item }) => needle === "" || item.text.toLowerCase().includes(needle))
  const limited = !expanded && needle === "" && visible !== null && shown.length > visible ? shown.slice(0, visible) : shown
  return (
    <div className="choice">
      {items.length > 12 ? (
        <input
          type="search"
          className="option-filter"
          placeholder="Filter options"
          aria-label={`Filter the options of ${question.title}`}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") e.preventDefault()
          }}
        />
      ) : null}
      <div role={multi ? "group" : "radiogroup"} aria-labelledby={labelledBy} className="options">
        {limited.map(({ index, item }) => {
          const key = pickKey(index)
          const selected = isSelected(value, item)
          const suggestedAt = suggestedIndex(suggestion, item)
          return (
            <button
              key={String(item.value)}
              type="button"
              role={multi ? "checkbox" : "radio"}
              aria-checked={selected}
              aria-keyshortcuts={key}
              className="option"
              title={item.description ?? undefined}
              onClick={() => {
                const change = pick(question, value, index, suggestion)
                if (change._tag === "set") onChange(change.value)
              }}
            >
              {key === undefined ? null : <kbd aria-hidden="true">{key}</kbd>}
              <span>{item.text}</span>
              {suggestion !== undefined && suggestedAt !== undefined
                ? <SuggestedMark suggestion={suggestion} index={suggestedAt} />
                : null}
            </button>
          )
        })}
        {limited.length < shown.length ? (
          <button type="button" className="more" onClick={() => setExpanded(true)}>
            +{shown.length - limited.length} more
          </button>
        ) : null}
      </div>
    </div>
  )
}

/** What a number key does to each kind of question: the same rules for the key and for a click. */
import type { LabelOption, Question } from "../../../../../src/domain/Question.js"
import type { Suggestion } from "../../../../../src/domain/Suggestion.js"
import type { RankItem } from "./answers.js"

export type Change = { readonly _tag: "set"; readonly value: unknown } | { readonly _tag: "none" }

const set = (value: unknown): Change => ({ _tag: "set", value })
const none: Change = { _tag: "none" }

/** Label options in display order: with `options_order: suggestion`, the suggested ones first. */
export const orderedOptions = (question: Question, suggestion: Suggestion | undefined): ReadonlyArray<LabelOption> => {
  const settings = question.settings
  if (!("options" in settings) || settings.type === "rating") return []
  const options: ReadonlyArray<LabelOption> = settings.options
  if (settings.type !== "multi_label_selection" || settings.options_order !== "suggestion" || suggestion === undefined) {
    return options
  }
  const suggested = new Set(Array.isArray(suggestion.value) ? suggestion.value : [])
  return [...options.filter((o) => suggested.has(o.value)), ...options.filter((o) => !suggested.has(o.value))]
}

/** Ranking answers always list every option; unranked ones carry `rank: null`. */
export const rankItems = (question: Question, value: unknown): ReadonlyArray<RankItem> => {
  const settings = question.settings
  if (settings.type !== "ranking") return []
  const given = new Map((Array.isArray(value) ? value as ReadonlyArray<RankItem> : []).map((i) => [i.value, i.rank]))
  return settings.options.map((o) => ({ value: o.value, rank: given.get(o.value) ?? null }))
}

/** The change that picking option `index` makes (a number key, or a click on that option). */
export const pick = (question: Question, value: unknown, index: number, suggestion?: Suggestion): Change => {
  const settings = question.settings
  switch (settings.type) {
    case "label_selection": {
      const option = orderedOptions(question, suggestion)[index]
      if (option === undefined) return none
      return set(value === option.value ? undefined : option.value)
    }
    case "multi_label_selection": {
      const option = orderedOptions(question, suggestion)[index]
      if (option === undefined) return none
      const current = Array.isArray(value) ? value as ReadonlyArray<string> : []
      const next = current.includes(option.value)
        ? current.filter((v) => v !== option.value)
        : [...current, option.value]
      return set(next.length === 0 ? undefined : next)
    }
    case "rating": {
      const option = settings.options[index]
      if (option === undefined) return none
      return set(value === option.value ? undefined : option.value)
    }
    case "ranking": {
      // Number keys rank the options in turn: the first unranked option gets rank `index + 1`.
      const items = rankItems(question, value)
      if (index >= items.length) return none
      const target = items.findIndex((i) => i.rank === null)
      if (target === -1) return none
      return set(items.map((item, i) => (i === target ? { ...item, rank: index + 1 } : item)))
    }
    default:
      return none
  }
}

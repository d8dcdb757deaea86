/** Label options' order in the settings: moving one up or down, and whether a list differs from the saved one. */

/** `list` with the item at `index` moved by `delta` places (clamped to the list); the same list when it cannot move. */
export const moveItem = <A>(list: ReadonlyArray<A>, index: number, delta: number): ReadonlyArray<A> => {
  const target = Math.min(list.length - 1, Math.max(0, index + delta))
  if (index < 0 || index >= list.length || target === index) return list
  const next = [...list]
  const [item] = next.splice(index, 1)
  if (item === undefined) return list
  next.splice(target, 0, item)
  return next
}

interface Option {
  readonly value: string
  readonly text: string
  readonly description: string | null
}

/** Whether the options differ (wording, description or order) from `saved`. */
export const optionsChanged = (saved: ReadonlyArray<Option>, edited: ReadonlyArray<Option>) =>
  saved.length !== edited.length ||
  saved.some((option, i) => {
    const other = edited[i]
    return other === undefined || other.value !== option.value || other.text !== option.text ||
      (other.description ?? null) !== (option.description ?? null)
  })

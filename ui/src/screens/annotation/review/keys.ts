/**
 * Review mode's keys, in one table as the focus view's are (`keyboard/shortcuts.ts`): the handler, the key hints
 * on buttons and the `?` sheet read it. Keys never act while the reviewer types in a text box (the note, their own
 * answer); there only Escape (leave the box) works.
 */
import type { KeyInput } from "../../../keyboard/shortcuts.js"

export type ReviewAction =
  | { readonly _tag: "pickAnswer"; readonly index: number }
  | { readonly _tag: "pickSuggestion" }
  | { readonly _tag: "ownAnswer" }
  | { readonly _tag: "note" }
  | { readonly _tag: "settle" }
  | { readonly _tag: "unsettle" }
  | { readonly _tag: "nextQuestion" }
  | { readonly _tag: "previousQuestion" }
  | { readonly _tag: "nextRecord" }
  | { readonly _tag: "previousRecord" }
  | { readonly _tag: "leave" }

/** What the key hints on buttons say. */
export const REVIEW_KEYS = {
  suggestion: "S",
  own: "O",
  note: "N",
  unsettle: "U",
  settle: "Enter",
  nextRecord: "→",
  previousRecord: "←"
} as const

/** The help sheet's rows for review mode. */
export const REVIEW_HELP: ReadonlyArray<{ readonly keys: string; readonly does: string }> = [
  { keys: "↑ / ↓", does: "Move to the previous / next question" },
  { keys: "1 … 9", does: "Pick the 1st … 9th annotator's answer as the current question's final answer" },
  { keys: "S", does: "Pick the suggestion" },
  { keys: "O", does: "Enter your own answer (Tab moves through its inputs)" },
  { keys: "N", does: "Write a note on the current question's final answer" },
  { keys: "Enter", does: "Settle the picked answers and move to the next record" },
  { keys: "U", does: "Unsettle the current question (remove its final answer)" },
  { keys: "← / → or K / J", does: "Previous / next record" },
  { keys: "Esc", does: "Leave the note or your own answer" }
]

const DIGITS = "123456789"

/** The action for a key press in review mode, or undefined. `typing`: the focus is in a text box. */
export const reviewActionFor = (input: KeyInput, typing: boolean): ReviewAction | undefined => {
  const { altKey, ctrlKey, key, metaKey, shiftKey } = input
  if (typing) return key === "Escape" ? { _tag: "leave" } : undefined
  if (ctrlKey || metaKey || altKey) return undefined
  switch (key) {
    case "ArrowDown":
      return { _tag: "nextQuestion" }
    case "ArrowUp":
      return { _tag: "previousQuestion" }
    case "ArrowRight":
      return shiftKey ? undefined : { _tag: "nextRecord" }
    case "ArrowLeft":
      return shiftKey ? undefined : { _tag: "previousRecord" }
    case "Enter":
      return shiftKey ? undefined : { _tag: "settle" }
    case "Escape":
      return { _tag: "leave" }
  }
  if (shiftKey) return undefined
  switch (key.toLowerCase()) {
    case "j":
      return { _tag: "nextRecord" }
    case "k":
      return { _tag: "previousRecord" }
    case "s":
      return { _tag: "pickSuggestion" }
    case "o":
      return { _tag: "ownAnswer" }
    case "n":
      return { _tag: "note" }
    case "u":
      return { _tag: "unsettle" }
  }
  const digit = DIGITS.indexOf(key)
  return digit === -1 ? undefined : { _tag: "pickAnswer", index: digit }
}

/** The key that picks the `index`-th (0-based) annotator's answer, as printed beside it. */
export const answerKey = (index: number): string | undefined => DIGITS[index]

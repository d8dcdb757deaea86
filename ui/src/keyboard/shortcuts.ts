/**
 * The annotation view's keys, in one table: the handler, the key hints printed on buttons and the `?` help sheet
 * all read it. Keys never act while the user types in a text box; there only Escape (leave the box) works.
 */

export type Action =
  | { readonly _tag: "help" }
  | { readonly _tag: "nextQuestion" }
  | { readonly _tag: "previousQuestion" }
  | { readonly _tag: "pick"; readonly index: number }
  | { readonly _tag: "enterQuestion" }
  | { readonly _tag: "leave" }
  | { readonly _tag: "submit" }
  | { readonly _tag: "draft" }
  | { readonly _tag: "discard" }
  | { readonly _tag: "nextRecord" }
  | { readonly _tag: "previousRecord" }
  | { readonly _tag: "undo" }

export interface KeyInput {
  readonly key: string
  readonly shiftKey: boolean
  readonly ctrlKey: boolean
  readonly metaKey: boolean
  readonly altKey: boolean
}

/** What the key hints on buttons say. */
export const KEYS = {
  submit: "Enter",
  draft: "Ctrl+S",
  discard: "Backspace",
  nextRecord: "→",
  previousRecord: "←",
  undo: "Ctrl+Z",
  help: "?"
} as const

/** The help sheet: every key of the view, including those of the span editor. */
export const HELP: ReadonlyArray<{ readonly keys: string; readonly does: string }> = [
  { keys: "↑ / ↓", does: "Move to the previous / next question" },
  { keys: "1 … 9, 0", does: "Pick option 1 … 10 of the current question (toggle for multi-label; rank for ranking)" },
  { keys: "Tab / Shift+Tab", does: "Move between options and buttons (Space toggles an option; Enter presses a button)" },
  { keys: "Shift+Enter", does: "Type in the current text question, or start marking spans in its text" },
  { keys: "Esc", does: "Leave the text box or span text" },
  { keys: "Enter", does: "Submit the record, also from an option or rank just picked (in a text box: a new line)" },
  { keys: "Ctrl+S (⌘S)", does: "Save as draft" },
  { keys: "Backspace", does: "Discard the record" },
  { keys: "← / →", does: "Previous / next record" },
  { keys: "Ctrl+Z (⌘Z)", does: "Undo the last submit, draft or discard (while its notice shows)" },
  { keys: "In span text: ← / →", does: "Move by token (Alt: by character)" },
  { keys: "In span text: Shift+← / →", does: "Extend the selection by token (Alt+Shift: by character)" },
  { keys: "In span text: Enter", does: "Mark the selection with the current label" },
  { keys: "In span text: Delete", does: "Remove the spans under the cursor" },
  { keys: "?", does: "Show this help" }
]

const TEXT_INPUTS = new Set(["text", "search", "email", "password", "number", "url", "tel", "date", "datetime-local"])

/** True for elements that take typed text (or pick with keys, as a `<select>` does). */
export const isTyping = (target: EventTarget | null): boolean => {
  if (typeof HTMLElement === "undefined" || !(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true
  return target instanceof HTMLInputElement && TEXT_INPUTS.has(target.type)
}

const DIGITS = "1234567890"

/** The action for a key press, or undefined. `typing`: the focus is in a text box. */
export const actionFor = (input: KeyInput, typing: boolean): Action | undefined => {
  const { altKey, ctrlKey, key, metaKey, shiftKey } = input
  if (typing) return key === "Escape" ? { _tag: "leave" } : undefined
  if ((ctrlKey || metaKey) && !altKey && key.toLowerCase() === "s") return { _tag: "draft" }
  if ((ctrlKey || metaKey) && !altKey && !shiftKey && key.toLowerCase() === "z") return { _tag: "undo" }
  if (ctrlKey || metaKey || altKey) return undefined
  switch (key) {
    case "?":
      return { _tag: "help" }
    case "ArrowDown":
      return { _tag: "nextQuestion" }
    case "ArrowUp":
      return { _tag: "previousQuestion" }
    case "ArrowRight":
      return shiftKey ? undefined : { _tag: "nextRecord" }
    case "ArrowLeft":
      return shiftKey ? undefined : { _tag: "previousRecord" }
    case "Enter":
      return shiftKey ? { _tag: "enterQuestion" } : { _tag: "submit" }
    case "Backspace":
      return shiftKey ? undefined : { _tag: "discard" }
    case "Escape":
      return { _tag: "leave" }
  }
  const digit = DIGITS.indexOf(key)
  return digit === -1 || shiftKey ? undefined : { _tag: "pick", index: digit }
}

/** The key that picks option `index` (0-based), as printed on the option. */
export const pickKey = (index: number): string | undefined => DIGITS[index]

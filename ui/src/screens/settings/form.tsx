/** The settings forms' parts: a labelled input that shows the problems about it, and a save button with its state. */
import { type ReactNode, useId, useState } from "react"
import { type Problem, problemsAt, problemsOf } from "../../data/settings.js"

export type SaveState =
  | { readonly kind: "idle" }
  | { readonly kind: "saving" }
  | { readonly kind: "saved" }
  | { readonly kind: "failed"; readonly problems: ReadonlyArray<Problem> }

/** Runs a save and keeps its state: saving, saved, or the problems it reported. */
export const useSave = () => {
  const [state, setState] = useState<SaveState>({ kind: "idle" })
  const run = async (save: () => Promise<unknown>): Promise<boolean> => {
    setState({ kind: "saving" })
    try {
      await save()
      setState({ kind: "saved" })
      return true
    } catch (error) {
      setState({ kind: "failed", problems: problemsOf(error) })
      return false
    }
  }
  const problems = state.kind === "failed" ? state.problems : []
  /** Editing again clears "Saved". */
  const touched = () => {
    if (state.kind === "saved") setState({ kind: "idle" })
  }
  return { state, problems, run, touched }
}

/** Problems under an input, tied to it by `aria-describedby`. */
export const ProblemText = (props: { readonly id: string; readonly messages: ReadonlyArray<string> }) =>
  props.messages.length === 0 ? null : (
    <p id={props.id} className="error settings-problem">{props.messages.join(" ")}</p>
  )

export const TextInput = (props: {
  readonly label: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly problems?: ReadonlyArray<Problem>
  /** Which problems are about this input. */
  readonly path?: string
  readonly multiline?: boolean
  readonly type?: "text" | "number"
  readonly min?: number
  readonly hint?: ReactNode
  readonly readOnly?: boolean
}) => {
  const id = useId()
  const messages = props.path === undefined ? [] : problemsAt(props.problems ?? [], props.path)
  const problemId = `${id}-problem`
  const hintId = `${id}-hint`
  const describedBy = [props.hint === undefined ? "" : hintId, messages.length > 0 ? problemId : ""].filter((s) => s !== "").join(" ")
  const common = {
    id,
    value: props.value,
    readOnly: props.readOnly,
    "aria-invalid": messages.length > 0 ? true : undefined,
    "aria-describedby": describedBy === "" ? undefined : describedBy
  }
  return (
    <div className="settings-input">
      <label htmlFor={id}>{props.label}</label>
      {props.hint === undefined ? null : <span id={hintId} className="muted settings-hint">{props.hint}</span>}
      {props.multiline === true
        ? <textarea {...common} rows={6} onChange={(e) => props.onChange(e.target.value)} />
        : <input {...common} type={props.type ?? "text"} min={props.min} onChange={(e) => props.onChange(e.target.value)} />}
      <ProblemText id={problemId} messages={messages} />
    </div>
  )
}

/** The save button, "Saved" after a save, and the problems no input claimed. */
export const SaveRow = (props: {
  readonly state: SaveState
  readonly dirty: boolean
  readonly others: ReadonlyArray<string>
  readonly label?: string
}) => (
  <div className="settings-save">
    <button type="submit" className="primary" disabled={!props.dirty || props.state.kind === "saving"}>
      {props.state.kind === "saving" ? "Saving…" : props.label ?? "Save"}
    </button>
    <span role="status" className="muted">{props.state.kind === "saved" ? "Saved" : ""}</span>
    {props.others.length > 0 ? <p role="alert" className="error">{props.others.join(" ")}</p> : null}
  </div>
)

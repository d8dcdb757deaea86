/** The new-dataset form's parts: labelled inputs, and one item of the draft (locked once created). */
import type { ReactNode } from "react"

export const Input = (props: {
  readonly id: string
  readonly label: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly type?: "text" | "number"
  readonly multiline?: boolean
  readonly hint?: string
}) => (
  <div className="settings-input">
    <label htmlFor={props.id}>{props.label}</label>
    {props.multiline === true
      ? <textarea id={props.id} rows={4} value={props.value} aria-describedby={props.hint === undefined ? undefined : `${props.id}-hint`} onChange={(e) => props.onChange(e.target.value)} />
      : <input id={props.id} type={props.type ?? "text"} value={props.value} aria-describedby={props.hint === undefined ? undefined : `${props.id}-hint`} onChange={(e) => props.onChange(e.target.value)} />}
    {props.hint === undefined ? null : <span id={`${props.id}-hint`} className="muted settings-hint">{props.hint}</span>}
  </div>
)

export const Select = <A extends string,>(props: {
  readonly id: string
  readonly label: string
  readonly value: A
  readonly options: ReadonlyArray<readonly [A, string]>
  readonly onChange: (value: A) => void
}) => (
  <div className="settings-input">
    <label htmlFor={props.id}>{props.label}</label>
    <select
      id={props.id}
      value={props.value}
      onChange={(e) => {
        const chosen = props.options.find(([value]) => value === e.target.value)
        if (chosen !== undefined) props.onChange(chosen[0])
      }}
    >
      {props.options.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
    </select>
  </div>
)

export const Check = (props: { readonly id: string; readonly label: string; readonly checked: boolean; readonly onChange: (checked: boolean) => void }) => (
  <div className="settings-check">
    <input id={props.id} type="checkbox" checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} />
    <label htmlFor={props.id}>{props.label}</label>
  </div>
)

export type Status = "created" | "failed" | undefined

/** One item of the draft: its inputs (locked once created), its problems and a Remove button. */
export const Item = (props: {
  readonly label: string
  readonly status: Status
  readonly problems: ReadonlyArray<string>
  readonly onRemove: () => void
  readonly children: ReactNode
}) => (
  <fieldset className={`draft-item panel ${props.status ?? ""}`} disabled={props.status === "created"}>
    <legend>{props.label}{props.status === "created" ? " (created)" : ""}</legend>
    <div className="grid">{props.children}</div>
    {props.problems.length > 0 ? <ul className="error">{props.problems.map((p) => <li key={p}>{p}</li>)}</ul> : null}
    {props.status === "created" ? null : <div><button type="button" onClick={props.onRemove}>Remove {props.label}</button></div>}
  </fieldset>
)

export const replace = <A extends { readonly key: string },>(list: ReadonlyArray<A>, key: string, change: Partial<A>) =>
  list.map((item) => (item.key === key ? { ...item, ...change } : item))

/**
 * The inputs of a new account, shared by the set-up and invitation pages: username, names, and the password typed
 * twice (checked here before sending: the server's rules, `passwordProblem`).
 */
import { useState } from "react"
import { PASSWORD_MIN, passwordProblem } from "../../data/roster.js"

export interface AccountDraft {
  readonly username: string
  readonly firstName: string
  readonly lastName: string
  readonly password: string
  readonly repeated: string
}

const EMPTY: AccountDraft = { username: "", firstName: "", lastName: "", password: "", repeated: "" }

export const useAccountDraft = () => {
  const [draft, setDraft] = useState<AccountDraft>(EMPTY)
  const set = (key: keyof AccountDraft) => (value: string) => setDraft((d) => ({ ...d, [key]: value }))
  return { draft, set, problem: passwordProblem(draft.password, draft.repeated) }
}

const Input = (props: {
  readonly id: string
  readonly label: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly type?: "text" | "password"
  readonly autoComplete: string
  readonly hint?: string
  readonly required?: boolean
  readonly autoFocus?: boolean
}) => (
  <>
    <label htmlFor={props.id}>{props.label}</label>
    {props.hint === undefined ? null : <span id={`${props.id}-hint`} className="muted account-hint">{props.hint}</span>}
    <input id={props.id} name={props.id} type={props.type ?? "text"} value={props.value} autoComplete={props.autoComplete}
      required={props.required} autoFocus={props.autoFocus}
      aria-describedby={props.hint === undefined ? undefined : `${props.id}-hint`}
      onChange={(e) => props.onChange(e.target.value)} />
  </>
)

/** The inputs; `names` adds first and last name (the invitation page asks for them; set-up only the first). */
export const AccountFields = (props: {
  readonly draft: AccountDraft
  readonly set: (key: keyof AccountDraft) => (value: string) => void
  readonly lastName?: boolean
  readonly autoFocus?: boolean
}) => {
  const { draft, set } = props
  return (
    <>
      <Input id="new-username" label="Username" value={draft.username} onChange={set("username")} autoComplete="username"
        required autoFocus={props.autoFocus ?? false} hint="What you sign in with." />
      <Input id="first-name" label="First name" value={draft.firstName} onChange={set("firstName")} autoComplete="given-name"
        required />
      {props.lastName === true
        ? <Input id="last-name" label="Last name (optional)" value={draft.lastName} onChange={set("lastName")} autoComplete="family-name" />
        : null}
      <Input id="new-password" label="Password" type="password" value={draft.password} onChange={set("password")}
        autoComplete="new-password" required hint={`At least ${PASSWORD_MIN} characters.`} />
      <Input id="repeat-password" label="Password again" type="password" value={draft.repeated} onChange={set("repeated")}
        autoComplete="new-password" required />
    </>
  )
}

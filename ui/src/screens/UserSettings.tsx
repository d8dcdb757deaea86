/**
 * `/user-settings`: who I am, my workspaces, my password, my API key (for the Python SDK) with a copy button and a
 * new one on request, and the theme.
 */
import { useQuery } from "@tanstack/react-query"
import { type FormEvent, useRef, useState } from "react"
import { changePassword, regenerateApiKey } from "../data/accounts.js"
import { errorMessage } from "../data/client.js"
import { me, myWorkspaces } from "../data/queries.js"
import { passwordProblem, PASSWORD_MIN } from "../data/roster.js"
import { setTheme, THEME_LABELS, THEMES, useTheme } from "../theme.js"

const THEME_HINTS = {
  system: "Light or dark, as your device is set",
  light: "Dark text on light backgrounds",
  dark: "Light text on dark backgrounds",
  "high-contrast": "White on black, yellow focus, thick outlines"
} as const

/** Applied at once and kept in this browser (the server keeps no display settings). */
const ThemeChoice = () => {
  const current = useTheme()
  return (
    <section className="panel" aria-labelledby="appearance-title">
      <h2 id="appearance-title">Appearance</h2>
      <fieldset className="theme-choice">
        <legend>Theme</legend>
        {THEMES.map((theme) => (
          <div key={theme} className="theme-option">
            <input
              type="radio"
              id={`theme-${theme}`}
              name="theme"
              value={theme}
              checked={current === theme}
              onChange={() => setTheme(theme)}
              aria-describedby={`theme-hint-${theme}`}
            />
            <label htmlFor={`theme-${theme}`}>{THEME_LABELS[theme]}</label>
            <span id={`theme-hint-${theme}`} className="muted theme-hint">{THEME_HINTS[theme]}</span>
          </div>
        ))}
      </fieldset>
    </section>
  )
}

/** The current password and the new one twice; the session stays signed in. */
const PasswordChange = () => {
  const [current, setCurrent] = useState("")
  const [next, setNext] = useState("")
  const [repeated, setRepeated] = useState("")
  const [state, setState] = useState<{ readonly kind: "idle" | "saving" | "saved" } | { readonly kind: "failed"; readonly message: string }>(
    { kind: "idle" }
  )
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = passwordProblem(next, repeated)
    if (problem !== undefined) return setState({ kind: "failed", message: problem })
    setState({ kind: "saving" })
    try {
      await changePassword(current, next)
      setCurrent("")
      setNext("")
      setRepeated("")
      setState({ kind: "saved" })
    } catch (error) {
      setState({ kind: "failed", message: errorMessage(error) })
    }
  }
  return (
    <section className="panel" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <form className="my-password" onSubmit={(e) => void submit(e)}>
        <label htmlFor="current-password">Current password</label>
        <input id="current-password" type="password" autoComplete="current-password" value={current} required
          onChange={(e) => setCurrent(e.target.value)} />
        <label htmlFor="changed-password">New password</label>
        <input id="changed-password" type="password" autoComplete="new-password" value={next} required
          aria-describedby="changed-password-hint" onChange={(e) => setNext(e.target.value)} />
        <span id="changed-password-hint" className="muted">At least {PASSWORD_MIN} characters.</span>
        <label htmlFor="repeated-password">New password again</label>
        <input id="repeated-password" type="password" autoComplete="new-password" value={repeated} required
          onChange={(e) => setRepeated(e.target.value)} />
        <div className="my-password-save">
          <button type="submit" className="primary" disabled={state.kind === "saving" || current === "" || next === ""}>
            {state.kind === "saving" ? "Changing…" : "Change password"}
          </button>
          <span role="status">{state.kind === "saved" ? "Password changed." : ""}</span>
        </div>
        {state.kind === "failed" ? <p role="alert" className="error">{state.message}</p> : null}
      </form>
    </section>
  )
}

/** A new key, behind a confirmation: the old one stops working at once (scripts and notebooks that use it too). */
const RegenerateKey = (props: { readonly onDone: (message: string) => void }) => {
  const dialog = useRef<HTMLDialogElement>(null)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | undefined>(undefined)
  const confirm = async () => {
    setBusy(true)
    setFailure(undefined)
    try {
      await regenerateApiKey()
      dialog.current?.close()
      props.onDone("A new API key is shown above; the old one no longer works.")
    } catch (error) {
      setFailure(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <>
      <button type="button" onClick={() => { setFailure(undefined); dialog.current?.showModal() }}>New API key</button>
      <dialog ref={dialog} className="confirm-dialog" aria-labelledby="regenerate-title" aria-describedby="regenerate-text">
        <h2 id="regenerate-title">Replace your API key?</h2>
        <p id="regenerate-text">
          The current key stops working at once: scripts, notebooks and SDK clients that use it must be given the new one.
        </p>
        {failure === undefined ? null : <p role="alert" className="error">{failure}</p>}
        <div className="confirm-actions">
          <button type="button" onClick={() => dialog.current?.close()}>Cancel</button>
          <button type="button" className="primary" disabled={busy} onClick={() => void confirm()}>
            {busy ? "Replacing…" : "Replace the key"}
          </button>
        </div>
      </dialog>
    </>
  )
}

export const UserSettings = () => {
  const user = useQuery(me).data
  const workspaces = useQuery(myWorkspaces).data ?? []
  const [copied, setCopied] = useState<string>("")
  if (user === undefined) return <main id="main" className="page"><p>Loading…</p></main>
  // `GET /me` always shows the caller their own key; the schema has it optional because other answers leave it out.
  const apiKey = user.api_key ?? ""
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(apiKey)
      setCopied("API key copied to the clipboard.")
    } catch {
      setCopied("Copying is not allowed here: select the key and copy it.")
    }
  }
  return (
    <main id="main" className="page settings">
      <h1>My settings</h1>
      <section className="panel" aria-labelledby="profile-title">
        <h2 id="profile-title">Profile</h2>
        <dl>
          <dt>Username</dt>
          <dd>{user.username}</dd>
          <dt>Name</dt>
          <dd>{[user.first_name, user.last_name].filter((n) => n !== null && n !== "").join(" ")}</dd>
          <dt>Role</dt>
          <dd>{user.role}</dd>
          <dt>Workspaces</dt>
          <dd>{workspaces.length === 0 ? "None" : workspaces.map((w) => w.name).join(", ")}</dd>
        </dl>
      </section>
      <section className="panel" aria-labelledby="key-title">
        <h2 id="key-title">API key</h2>
        <p>Use it with the Python SDK or the API (<code>X-Argilla-Api-Key</code> header).</p>
        <div className="api-key">
          <input readOnly aria-label="API key" value={apiKey} onFocus={(e) => e.target.select()} />
          <button type="button" className="primary" onClick={() => void copy()}>Copy</button>
          <RegenerateKey onDone={setCopied} />
        </div>
        <p role="status" className="muted">{copied}</p>
      </section>
      <PasswordChange />
      <ThemeChoice />
    </main>
  )
}

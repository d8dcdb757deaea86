/** `/user-settings`: who I am, my workspaces, my API key (for the Python SDK) with a copy button, and the theme. */
import { useQuery } from "@tanstack/react-query"
import { useState } from "react"
import { me, myWorkspaces } from "../data/queries.js"
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
        </div>
        <p role="status" className="muted">{copied}</p>
      </section>
      <ThemeChoice />
    </main>
  )
}

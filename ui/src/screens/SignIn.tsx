/** `/sign-in`: username and password; on success back to `?redirect=` (where a 401 or a link sent the user). */
import { type FormEvent, useState } from "react"
import { isUnauthorized } from "../data/client.js"
import { errorMessage } from "../data/client.js"
import { signIn } from "../data/queries.js"
import { session } from "../data/session.js"
import { navigate, useLocation } from "../router.js"

/** Only paths inside the app: never an absolute URL that would send the user elsewhere. */
const safeRedirect = (raw: string | null) => (raw !== null && raw.startsWith("/") && !raw.startsWith("//") ? raw : "/")

export const SignIn = () => {
  const { search } = useLocation()
  const [username, setUsername] = useState("")
  const [password, setPassword] = useState("")
  const [showPassword, setShowPassword] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const expired = session.get().expired

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      const token = await signIn(username, password)
      session.signIn(token)
      navigate(safeRedirect(search.get("redirect")), { replace: true })
    } catch (failure) {
      setError(isUnauthorized(failure) ? "Wrong username or password." : errorMessage(failure))
      setBusy(false)
    }
  }

  return (
    <main id="main" className="sign-in">
      <form className="card" onSubmit={(e) => void onSubmit(e)} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to Gloss</h1>
        {expired ? <p className="notice">Your session has ended. Sign in again to continue.</p> : null}
        <label htmlFor="username">Username</label>
        <input id="username" name="username" autoComplete="username" autoFocus value={username}
          onChange={(e) => setUsername(e.target.value)} />
        <label htmlFor="password">Password</label>
        <div className="password">
          <input id="password" name="password" type={showPassword ? "text" : "password"} autoComplete="current-password"
            value={password} onChange={(e) => setPassword(e.target.value)} />
          <button type="button" className="secondary" aria-pressed={showPassword}
            onClick={() => setShowPassword((s) => !s)}>
            {showPassword ? "Hide" : "Show"}
            <span className="visually-hidden"> password</span>
          </button>
        </div>
        {error === undefined ? null : <p className="error" role="alert">{error}</p>}
        <button type="submit" className="primary" disabled={busy || username === "" || password === ""}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </main>
  )
}

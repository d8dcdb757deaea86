/**
 * `/sign-in`: username and password, and a button per OAuth provider the server offers; on success back to
 * `?redirect=` (where a 401 or a link sent the user). A server without an owner yet says so, with a link to `/setup`.
 */
import { useQuery } from "@tanstack/react-query"
import { type FormEvent, useState } from "react"
import { setupStatus } from "../data/accounts.js"
import { appBase, isUnauthorized } from "../data/client.js"
import { errorMessage } from "../data/client.js"
import { rememberRedirect, safeRedirect } from "../data/oauthRedirect.js"
import { oauthProviders, signIn } from "../data/queries.js"
import { session } from "../data/session.js"
import { Link, navigate, useLocation } from "../router.js"

const PROVIDER_NAMES: Readonly<Record<string, string>> = { huggingface: "Hugging Face" }

export const SignIn = () => {
  const { search } = useLocation()
  const [username, setUsername] = useState("")
  const [password, setPassword] = useState("")
  const [showPassword, setShowPassword] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const expired = session.get().expired
  const providers = useQuery(oauthProviders).data ?? []
  const noOwner = useQuery(setupStatus).data?.needed === true

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      const token = await signIn(username, password)
      session.signIn(token)
      navigate(safeRedirect(search.get("redirect")), { replace: true })
    } catch (failure) {
      setError(isUnauthorized(failure)
        ? noOwner ? "Nobody can sign in yet: this server has no owner." : "Wrong username or password."
        : errorMessage(failure))
      setBusy(false)
    }
  }

  return (
    <main id="main" className="sign-in">
      <form className="card" onSubmit={(e) => void onSubmit(e)} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to Gloss</h1>
        {expired ? <p className="notice">Your session has ended. Sign in again to continue.</p> : null}
        {noOwner
          ? (
            <p className="notice" data-testid="no-owner">
              This server has no owner yet. <Link to="/setup">Set it up</Link> to create the first owner and workspace.
            </p>
          )
          : null}
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
        {providers.map(({ name }) => (
          // A plain link: the server answers with a redirect to the provider and the state cookie.
          <a key={name} className="button secondary oauth"
            href={`${appBase()}/api/v1/oauth2/providers/${encodeURIComponent(name)}/authentication`}
            onClick={() => rememberRedirect(search.get("redirect"))}>
            Sign in with {PROVIDER_NAMES[name] ?? name}
          </a>
        ))}
        <details className="first-time">
          <summary>No account yet?</summary>
          <p>
            Accounts are created by an owner of this server. On a new server nobody can sign in until the first owner
            exists: start it with <code>USERNAME</code> and <code>PASSWORD</code> set (for example{" "}
            <code>USERNAME=admin PASSWORD=change-me-please npm start</code>), or run{" "}
            <code>gloss users create --role owner</code>. The server's log says so at start-up, with a link to the set-up
            page where a browser creates that owner. Everyone else gets an account from an owner, or an invitation link.
          </p>
        </details>
      </form>
    </main>
  )
}

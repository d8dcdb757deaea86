/**
 * `/setup`, before anyone can sign in: the first owner and the first workspace. The set-up token comes from the
 * server's log (the link it prints carries it as `?token=`); the server does not ask for it from its own machine.
 * Once an owner exists the page says so and points to sign-in.
 */
import { useQuery } from "@tanstack/react-query"
import { type FormEvent, useState } from "react"
import { errorMessage } from "../../data/client.js"
import { setUp, setupStatus } from "../../data/accounts.js"
import { queryClient } from "../../data/queries.js"
import { session } from "../../data/session.js"
import { Link, navigate, useLocation } from "../../router.js"
import { AccountFields, useAccountDraft } from "./AccountFields.js"
import "./account.css"

export const SetupPage = () => {
  const { search } = useLocation()
  const status = useQuery(setupStatus)
  const { draft, set, problem } = useAccountDraft()
  const [token, setToken] = useState(search.get("token") ?? "")
  const [workspace, setWorkspace] = useState("")
  const [error, setError] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (problem !== undefined) return setError(problem)
    setBusy(true)
    setError(undefined)
    try {
      const accessToken = await setUp({
        ...(status.data?.token_required === true ? { token: token.trim() } : {}),
        username: draft.username.trim(),
        password: draft.password,
        workspace: workspace.trim(),
        first_name: draft.firstName.trim()
      })
      queryClient.clear()
      session.signIn(accessToken)
      navigate("/", { replace: true })
    } catch (failure) {
      setError(errorMessage(failure))
      setBusy(false)
    }
  }

  if (status.isError) {
    return (
      <main id="main" className="sign-in">
        <div className="card account-card">
          <h1>Set up Gloss</h1>
          <p role="alert" className="error">{errorMessage(status.error)}</p>
        </div>
      </main>
    )
  }
  if (status.data === undefined) {
    return <main id="main" className="sign-in"><p className="card">Checking this server…</p></main>
  }
  if (!status.data.needed) {
    return (
      <main id="main" className="sign-in">
        <div className="card account-card">
          <h1>This server is set up</h1>
          <p>It has an owner already. Sign in, or ask an owner for an account or an invitation link.</p>
          <Link to="/sign-in" className="button">Go to sign-in</Link>
        </div>
      </main>
    )
  }
  const tokenRequired = status.data.token_required
  return (
    <main id="main" className="sign-in">
      <form className="card account-card" onSubmit={(e) => void onSubmit(e)} aria-labelledby="setup-title">
        <h1 id="setup-title">Set up Gloss</h1>
        <p>Create the first owner of this server, and a first workspace for your datasets.</p>
        {tokenRequired ? (
          <>
            <label htmlFor="setup-token">Set-up token</label>
            <span id="setup-token-hint" className="muted account-hint">
              The server writes it to its log when it starts without an owner.
            </span>
            <input id="setup-token" name="token" value={token} autoComplete="off" required spellCheck={false}
              aria-describedby="setup-token-hint" onChange={(e) => setToken(e.target.value)} />
          </>
        ) : null}
        <fieldset>
          <legend>Your owner account</legend>
          <AccountFields draft={draft} set={set} autoFocus={!tokenRequired || token !== ""} />
        </fieldset>
        <label htmlFor="first-workspace">First workspace</label>
        <span id="first-workspace-hint" className="muted account-hint">Datasets live in workspaces; you can add more later.</span>
        <input id="first-workspace" name="workspace" value={workspace} required aria-describedby="first-workspace-hint"
          onChange={(e) => setWorkspace(e.target.value)} />
        {error === undefined ? null : <p className="error" role="alert">{error}</p>}
        <button type="submit" className="primary"
          disabled={busy || draft.username.trim() === "" || draft.firstName.trim() === "" || workspace.trim() === "" ||
            (tokenRequired && token.trim() === "")}>
          {busy ? "Setting up…" : "Create owner and workspace"}
        </button>
      </form>
    </main>
  )
}

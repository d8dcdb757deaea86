/**
 * `/oauth/<provider>/callback`: where the provider sends the browser back. Its `code` and `state` go to the server,
 * which checks the state cookie it set, signs the user in (creating them the first time) and returns a token.
 */
import { useEffect, useRef, useState } from "react"
import { errorMessage } from "../data/client.js"
import { takeRedirect } from "../data/oauthRedirect.js"
import { oauthSignIn } from "../data/queries.js"
import { session } from "../data/session.js"
import { Link, navigate, useLocation } from "../router.js"

export const OAuthCallback = (props: { readonly provider: string }) => {
  const { search } = useLocation()
  const [error, setError] = useState<string | undefined>(undefined)
  // The code is single-use: React's development double effects must not spend it twice.
  const started = useRef(false)

  useEffect(() => {
    if (started.current) return
    started.current = true
    const denied = search.get("error_description") ?? search.get("error")
    if (denied !== null) {
      setError(`The provider did not sign you in: ${denied}`)
      return
    }
    oauthSignIn(props.provider, search.get("code") ?? "", search.get("state") ?? "").then(
      (token) => {
        session.signIn(token)
        navigate(takeRedirect(), { replace: true })
      },
      (failure: unknown) => setError(errorMessage(failure))
    )
  }, [props.provider, search])

  return (
    <main id="main" className="sign-in">
      <div className="card" role="status" aria-live="polite">
        {error === undefined
          ? <p>Signing you in…</p>
          : (
            <>
              <h1>Sign-in failed</h1>
              <p className="error" role="alert">{error}</p>
              <Link to="/sign-in">Back to sign-in</Link>
            </>
          )}
      </div>
    </main>
  )
}

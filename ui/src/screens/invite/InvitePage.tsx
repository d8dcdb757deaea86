/**
 * `/invite?token=…`, without a session: who invites the visitor into which workspaces, as which role; then a
 * username, a name and a password, which create the account and sign in. An unknown, used, revoked or expired link
 * gets one answer (the server tells them apart to nobody).
 */
import { useQuery } from "@tanstack/react-query"
import { type FormEvent, useState } from "react"
import { acceptInvitation, invitationLookup } from "../../data/accounts.js"
import { errorMessage } from "../../data/client.js"
import { queryClient } from "../../data/queries.js"
import { session } from "../../data/session.js"
import { Link, navigate, useLocation } from "../../router.js"
import { AccountFields, useAccountDraft } from "../setup/AccountFields.js"
import "../setup/account.css"

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" })

const hasTag = (error: unknown, tag: string) =>
  typeof error === "object" && error !== null && "_tag" in error && error._tag === tag

const Unusable = (props: { readonly why: string }) => (
  <main id="main" className="sign-in">
    <div className="card account-card">
      <h1>This invitation cannot be used</h1>
      <p role="alert">{props.why}</p>
      <p>Ask the person who invited you for a new link. If you have an account already, sign in.</p>
      <Link to="/sign-in" className="button">Go to sign-in</Link>
    </div>
  </main>
)

export const InvitePage = () => {
  const token = useLocation().search.get("token") ?? ""
  const lookup = useQuery({ ...invitationLookup(token), enabled: token !== "" })
  const { draft, set, problem } = useAccountDraft()
  const [error, setError] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)

  if (token === "") return <Unusable why="The link has no invitation in it: copy the whole link." />
  if (lookup.isError) {
    return <Unusable why={hasTag(lookup.error, "NotFound")
      ? "It is unknown, has been used or revoked, or has expired."
      : errorMessage(lookup.error)} />
  }
  const offer = lookup.data
  if (offer === undefined) return <main id="main" className="sign-in"><p className="card">Looking up the invitation…</p></main>

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (problem !== undefined) return setError(problem)
    setBusy(true)
    setError(undefined)
    try {
      const accessToken = await acceptInvitation({
        token,
        username: draft.username.trim(),
        password: draft.password,
        first_name: draft.firstName.trim(),
        ...(draft.lastName.trim() === "" ? {} : { last_name: draft.lastName.trim() })
      })
      queryClient.clear()
      session.signIn(accessToken)
      navigate("/", { replace: true })
    } catch (failure) {
      setError(hasTag(failure, "Conflict")
        ? `The username “${draft.username.trim()}” is taken: choose another.`
        : errorMessage(failure))
      setBusy(false)
    }
  }

  return (
    <main id="main" className="sign-in">
      <form className="card account-card" onSubmit={(e) => void onSubmit(e)} aria-labelledby="invite-title">
        <h1 id="invite-title">Join Gloss</h1>
        <p>
          <strong>{offer.invited_by}</strong> invites you as {offer.role === "admin" ? "an admin" : "an annotator"}.
        </p>
        <dl className="account-offer">
          <dt>Role</dt>
          <dd>{offer.role === "admin" ? "Admin: manages datasets in these workspaces" : "Annotator: answers records"}</dd>
          <dt>{offer.workspaces.length === 1 ? "Workspace" : "Workspaces"}</dt>
          <dd>{offer.workspaces.join(", ")}</dd>
          <dt>Valid until</dt>
          <dd><time dateTime={offer.expires_at.toISOString()}>{dateFormat.format(offer.expires_at)}</time></dd>
        </dl>
        <AccountFields draft={draft} set={set} lastName autoFocus />
        {error === undefined ? null : <p className="error" role="alert">{error}</p>}
        <button type="submit" className="primary"
          disabled={busy || draft.username.trim() === "" || draft.firstName.trim() === ""}>
          {busy ? "Creating your account…" : "Accept and sign in"}
        </button>
      </form>
    </main>
  )
}

/** The pending invitations: role, workspaces, who invited, when the link expires, and revoke. */
import { useQuery } from "@tanstack/react-query"
import { useState } from "react"
import type { Invitation } from "../../../../src/domain/Invitation.js"
import { invitations as invitationsQuery, revokeInvitation } from "../../data/accounts.js"
import { errorMessage } from "../../data/client.js"
import { expiresIn } from "../../data/roster.js"

const Row = (props: { readonly invitation: Invitation; readonly now: Date }) => {
  const { invitation } = props
  const [failure, setFailure] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const names = invitation.workspaces.map((w) => w.name).join(", ")
  const revoke = async () => {
    setBusy(true)
    setFailure(undefined)
    try {
      await revokeInvitation(invitation.id)
    } catch (error) {
      setFailure(errorMessage(error))
      setBusy(false)
    }
  }
  return (
    <li className="invitation">
      <span><strong>{invitation.role}</strong> in {names}</span>
      <span className="muted">
        by {invitation.created_by.username}, expires {expiresIn(invitation.expires_at, props.now)}
      </span>
      <button type="button" disabled={busy} onClick={() => void revoke()}>
        Revoke<span className="visually-hidden"> the {invitation.role} invitation to {names}</span>
      </button>
      {failure === undefined ? null : <p role="alert" className="error">{failure}</p>}
    </li>
  )
}

export const Invitations = () => {
  const list = useQuery(invitationsQuery)
  const now = new Date()
  return (
    <section aria-labelledby="invitations-title" className="panel">
      <h2 id="invitations-title">Pending invitations</h2>
      {list.isError ? <p role="alert">{errorMessage(list.error)}</p> : list.data === undefined ? <p>Loading…</p>
        : list.data.length === 0 ? <p className="muted">None: links that were used, revoked or expired are not listed.</p>
        : <ul className="invitations">{list.data.map((i) => <Row key={i.id} invitation={i} now={now} />)}</ul>}
    </section>
  )
}

/**
 * One workspace's members: remove one (owners, and admins in their own workspaces), make an annotator a reviewer
 * there or take it back (the same people), and, for owners, add a user picked from everyone who is not a member yet
 * (narrowed by a search, so a thousand users stay usable).
 */
import { useQuery } from "@tanstack/react-query"
import { type FormEvent, useRef, useState } from "react"
import type { User } from "../../../../src/domain/User.js"
import type { Workspace } from "../../../../src/domain/Workspace.js"
import { addMember, removeMember } from "../../data/accounts.js"
import { addReviewer, removeReviewer, reviewers as reviewersQuery } from "../../data/agreement.js"
import { errorMessage } from "../../data/client.js"
import { filterPeople, fullName } from "../../data/roster.js"

/** How many candidates the picker lists at once; the search narrows the rest. */
const SHOWN = 100

const AddMember = (props: { readonly workspace: Workspace; readonly candidates: ReadonlyArray<User>; readonly onDone: (message: string) => void }) => {
  const [needle, setNeedle] = useState("")
  const [picked, setPicked] = useState("")
  const [failure, setFailure] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const matching = filterPeople(props.candidates, needle, "").sort((a, b) => a.username.localeCompare(b.username))
  const shown = matching.slice(0, SHOWN)
  const chosen = shown.find((u) => u.id === picked) ?? (shown.length === 1 ? shown[0] : undefined)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (chosen === undefined) return
    setBusy(true)
    setFailure(undefined)
    try {
      await addMember(props.workspace.id, chosen.id)
      setPicked("")
      setNeedle("")
      props.onDone(`${chosen.username} was added to ${props.workspace.name}.`)
    } catch (error) {
      setFailure(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="members-add" onSubmit={(e) => void submit(e)} aria-labelledby="add-member-title">
      <h3 id="add-member-title">Add a member</h3>
      <label htmlFor="member-search">Find a user</label>
      <input id="member-search" type="search" value={needle} placeholder="Username or name" onChange={(e) => setNeedle(e.target.value)} />
      <label htmlFor="member-pick">User</label>
      <select id="member-pick" value={chosen?.id ?? ""} onChange={(e) => setPicked(e.target.value)}>
        <option value="">{matching.length === 0 ? "Nobody to add" : "Choose a user"}</option>
        {shown.map((u) => <option key={u.id} value={u.id}>{u.username}{fullName(u) === "" ? "" : ` (${fullName(u)})`}, {u.role}</option>)}
      </select>
      {matching.length > SHOWN ? <span className="muted">{matching.length - SHOWN} more: search to narrow the list.</span> : null}
      {failure === undefined ? null : <p role="alert" className="error">{failure}</p>}
      <button type="submit" className="primary" disabled={busy || chosen === undefined}>
        {busy ? "Adding…" : "Add to workspace"}
      </button>
    </form>
  )
}

/**
 * An annotator's review rights in the workspace: everyone's answers, the agreement and final answers there. Owners
 * and admins review anyway, so only annotators get the switch; undefined `reviewer` while the list loads.
 */
const ReviewerToggle = (props: {
  readonly workspace: Workspace
  readonly user: User
  readonly reviewer: boolean | undefined
  readonly onDone: (message: string) => void
}) => {
  const { user, workspace } = props
  const [failure, setFailure] = useState<string | undefined>(undefined)
  // The box shows the change asked for until the list of reviewers, read again after it, agrees (or it failed).
  const [asked, setAsked] = useState<boolean | undefined>(undefined)
  const change = async (grant: boolean) => {
    setAsked(grant)
    setFailure(undefined)
    try {
      if (grant) await addReviewer(workspace.id, user.id)
      else await removeReviewer(workspace.id, user.id)
      props.onDone(grant ? `${user.username} now reviews in ${workspace.name}.` : `${user.username} no longer reviews in ${workspace.name}.`)
    } catch (error) {
      setFailure(errorMessage(error))
    } finally {
      setAsked(undefined)
    }
  }
  return (
    <>
      <label className="member-reviewer">
        <input
          type="checkbox"
          checked={asked ?? props.reviewer === true}
          disabled={asked !== undefined || props.reviewer === undefined}
          onChange={(e) => void change(e.target.checked)}
        />
        Reviewer<span className="visually-hidden"> rights for {user.username}</span>
      </label>
      {failure === undefined ? null : <p role="alert" className="error">{failure}</p>}
    </>
  )
}

const Member = (props: {
  readonly workspace: Workspace
  readonly user: User
  readonly canRemove: boolean
  /** Whether the annotator reviews here (undefined: not an annotator, or not known yet) */
  readonly reviewer: boolean | undefined
  readonly onDone: (message: string) => void
  /** After a change of review rights, which keeps the focus where it is. */
  readonly onReviewer: (message: string) => void
}) => {
  const { user, workspace } = props
  const [failure, setFailure] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const remove = async () => {
    setBusy(true)
    setFailure(undefined)
    try {
      await removeMember(workspace.id, user.id)
      props.onDone(`${user.username} was removed from ${workspace.name}.`)
    } catch (error) {
      setFailure(errorMessage(error))
      setBusy(false)
    }
  }
  return (
    <li className="member">
      <span><strong>{user.username}</strong>{fullName(user) === "" ? "" : ` ${fullName(user)}`} <span className="muted">{user.role}</span></span>
      <span className="member-actions">
        {user.role === "annotator"
          ? <ReviewerToggle workspace={workspace} user={user} reviewer={props.reviewer} onDone={props.onReviewer} />
          : null}
        {props.canRemove ? (
          <button type="button" disabled={busy} onClick={() => void remove()}>
            Remove<span className="visually-hidden"> {user.username} from {workspace.name}</span>
          </button>
        ) : null}
      </span>
      {failure === undefined ? null : <p role="alert" className="error">{failure}</p>}
    </li>
  )
}

export const MembersPanel = (props: {
  readonly workspace: Workspace
  readonly members: ReadonlyArray<User> | undefined
  /** everyone (owners only: admins cannot list users, nor add members) */
  readonly everyone: ReadonlyArray<User> | undefined
  readonly onClose: () => void
}) => {
  const [notice, setNotice] = useState("")
  const heading = useRef<HTMLHeadingElement>(null)
  // A removed member's button goes with them: the focus moves to the panel's heading rather than to the page's top.
  const removed = (message: string) => {
    setNotice(message)
    heading.current?.focus()
  }
  const reviewers = useQuery(reviewersQuery(props.workspace.id))
  const reviewerIds = reviewers.data === undefined ? undefined : new Set<string>(reviewers.data.map((r) => r.user_id))
  const memberIds = new Set((props.members ?? []).map((m) => m.id))
  // Owners belong everywhere without being members: they are not offered.
  const candidates = (props.everyone ?? []).filter((u) => !memberIds.has(u.id) && u.role !== "owner")
  return (
    <section className="panel members-panel" aria-labelledby="members-title">
      <div className="members-head">
        <h2 id="members-title" ref={heading} tabIndex={-1}>Members of {props.workspace.name}</h2>
        <button type="button" onClick={props.onClose}>Close<span className="visually-hidden"> the members</span></button>
      </div>
      <p role="status" className="muted">{notice}</p>
      {reviewers.isError ? <p role="alert" className="error">Reviewers: {errorMessage(reviewers.error)}</p> : null}
      {props.members === undefined ? <p>Loading members…</p>
        : props.members.length === 0 ? <p className="muted">No members yet.</p>
        : (
          <ul className="members">
            {props.members.map((m) => (
              <Member key={m.id} workspace={props.workspace} user={m} canRemove onDone={removed}
                reviewer={reviewerIds?.has(m.id)} onReviewer={setNotice} />
            ))}
          </ul>
        )}
      {props.everyone === undefined ? null : <AddMember workspace={props.workspace} candidates={candidates} onDone={setNotice} />}
    </section>
  )
}

/**
 * One user's changes (owners), in a dialog opened from their row: the role, a new password, and deleting the
 * account (after a second question naming them). The server refuses to remove the last owner and says why.
 */
import { type FormEvent, useEffect, useRef, useState } from "react"
import type { Role, User } from "../../../../src/domain/User.js"
import { deleteUser, updateUser } from "../../data/accounts.js"
import { errorMessage } from "../../data/client.js"
import { PASSWORD_MIN, passwordProblem } from "../../data/roster.js"

const ROLES: ReadonlyArray<Role> = ["annotator", "admin", "owner"]

type Step = "edit" | "confirm-delete"

export const ManageUser = (props: {
  readonly user: User | undefined
  readonly self: boolean
  readonly onClose: () => void
  readonly onDone: (message: string) => void
}) => {
  const dialog = useRef<HTMLDialogElement>(null)
  const { user } = props
  const [role, setRole] = useState<Role>("annotator")
  const [password, setPassword] = useState("")
  const [step, setStep] = useState<Step>("edit")
  const [failure, setFailure] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    if (user === undefined) return
    setRole(user.role)
    setPassword("")
    setStep("edit")
    setFailure(undefined)
    if (dialog.current?.open !== true) dialog.current?.showModal()
  }, [user])

  const run = async (action: () => Promise<string>) => {
    setBusy(true)
    setFailure(undefined)
    try {
      const message = await action()
      dialog.current?.close()
      props.onDone(message)
    } catch (error) {
      setFailure(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }
  if (user === undefined) return <dialog ref={dialog} className="confirm-dialog" aria-label="User" onClose={props.onClose} />
  const saveRole = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      await updateUser(user.id, { role })
      return `${user.username} is now ${role === "admin" || role === "annotator" ? `an ${role}` : "an owner"}.`
    })
  }
  const savePassword = (event: FormEvent) => {
    event.preventDefault()
    const problem = passwordProblem(password, password)
    if (problem !== undefined) return setFailure(problem)
    void run(async () => {
      await updateUser(user.id, { password })
      return `${user.username}'s password was changed.`
    })
  }
  return (
    <dialog ref={dialog} className="confirm-dialog people-dialog" aria-labelledby="manage-title" onClose={props.onClose}>
      {step === "edit" ? (
        <div className="people-form">
          <h2 id="manage-title">{user.username}</h2>
          <form onSubmit={saveRole} className="people-row">
            <label htmlFor="manage-role">Role</label>
            <select id="manage-role" value={role} onChange={(e) => setRole(ROLES.find((r) => r === e.target.value) ?? user.role)}>
              {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
            </select>
            <button type="submit" disabled={busy || role === user.role}>Change role</button>
          </form>
          <form onSubmit={savePassword} className="people-row">
            <label htmlFor="manage-password">New password</label>
            <input id="manage-password" type="text" value={password} autoComplete="off" spellCheck={false}
              aria-describedby="manage-password-hint" onChange={(e) => setPassword(e.target.value)} />
            <button type="submit" disabled={busy || password === ""}>Reset password</button>
            <span id="manage-password-hint" className="muted">At least {PASSWORD_MIN} characters; tell it to {user.username}.</span>
          </form>
          <div>
            <button type="button" className="danger" disabled={busy || props.self}
              aria-describedby={props.self ? "manage-self" : undefined} onClick={() => { setFailure(undefined); setStep("confirm-delete") }}>
              Delete user
            </button>
            {props.self ? <p id="manage-self" className="muted">You cannot delete your own account here.</p> : null}
          </div>
          {failure === undefined ? null : <p role="alert" className="error">{failure}</p>}
          <div className="confirm-actions">
            <button type="button" onClick={() => dialog.current?.close()}>Close</button>
          </div>
        </div>
      ) : (
        <div className="people-form">
          <h2 id="manage-title">Delete {user.username}?</h2>
          <p>
            {user.username} will no longer be able to sign in, their API key stops working, and their responses are
            deleted from every dataset. This cannot be undone.
          </p>
          {failure === undefined ? null : <p role="alert" className="error">{failure}</p>}
          <div className="confirm-actions">
            <button type="button" onClick={() => setStep("edit")}>Cancel</button>
            <button type="button" className="danger" disabled={busy}
              onClick={() => void run(async () => { await deleteUser(user.id); return `${user.username} was deleted.` })}>
              {busy ? "Deleting…" : `Delete ${user.username}`}
            </button>
          </div>
        </div>
      )}
    </dialog>
  )
}

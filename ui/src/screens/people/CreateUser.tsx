/** "New user" (owners): the account, its role and password, and the workspaces it joins. */
import { type FormEvent, useRef, useState } from "react"
import type { WorkspaceId } from "../../../../src/domain/Ids.js"
import type { Role } from "../../../../src/domain/User.js"
import type { Workspace } from "../../../../src/domain/Workspace.js"
import { createUser } from "../../data/accounts.js"
import { errorMessage } from "../../data/client.js"
import { PASSWORD_MIN, passwordProblem } from "../../data/roster.js"
import { WorkspaceChecks } from "./WorkspaceChecks.js"

const ROLES: ReadonlyArray<Role> = ["annotator", "admin", "owner"]

export const CreateUser = (props: { readonly workspaces: ReadonlyArray<Workspace>; readonly onCreated: (username: string) => void }) => {
  const dialog = useRef<HTMLDialogElement>(null)
  const [username, setUsername] = useState("")
  const [firstName, setFirstName] = useState("")
  const [lastName, setLastName] = useState("")
  const [role, setRole] = useState<Role>("annotator")
  const [password, setPassword] = useState("")
  const [chosen, setChosen] = useState<ReadonlySet<WorkspaceId>>(new Set())
  const [failure, setFailure] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)

  const open = () => {
    setUsername("")
    setFirstName("")
    setLastName("")
    setRole("annotator")
    setPassword("")
    setChosen(new Set())
    setFailure(undefined)
    dialog.current?.showModal()
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = passwordProblem(password, password)
    if (problem !== undefined) return setFailure(problem)
    setBusy(true)
    setFailure(undefined)
    try {
      const user = await createUser({
        username: username.trim(),
        first_name: firstName.trim(),
        ...(lastName.trim() === "" ? {} : { last_name: lastName.trim() }),
        role,
        password
      }, [...chosen])
      dialog.current?.close()
      props.onCreated(user.username)
    } catch (error) {
      setFailure(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <>
      <button type="button" className="primary" onClick={open}>New user</button>
      <dialog ref={dialog} className="confirm-dialog people-dialog" aria-labelledby="create-user-title">
        <form onSubmit={(e) => void submit(e)} className="people-form">
          <h2 id="create-user-title">New user</h2>
          <label htmlFor="create-username">Username</label>
          <input id="create-username" value={username} required autoComplete="off" onChange={(e) => setUsername(e.target.value)} />
          <label htmlFor="create-first-name">First name</label>
          <input id="create-first-name" value={firstName} required autoComplete="off" onChange={(e) => setFirstName(e.target.value)} />
          <label htmlFor="create-last-name">Last name (optional)</label>
          <input id="create-last-name" value={lastName} autoComplete="off" onChange={(e) => setLastName(e.target.value)} />
          <label htmlFor="create-role">Role</label>
          <select id="create-role" value={role} onChange={(e) => setRole(ROLES.find((r) => r === e.target.value) ?? "annotator")}>
            {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
          </select>
          <label htmlFor="create-password">Password</label>
          <input id="create-password" type="text" value={password} required autoComplete="off" spellCheck={false}
            aria-describedby="create-password-hint" onChange={(e) => setPassword(e.target.value)} />
          <span id="create-password-hint" className="muted">At least {PASSWORD_MIN} characters. Tell it to the person; they can change it in My settings.</span>
          <WorkspaceChecks legend="Workspaces" workspaces={props.workspaces} chosen={chosen} onChange={setChosen} idPrefix="create-ws" />
          {failure === undefined ? null : <p role="alert" className="error">{failure}</p>}
          <div className="confirm-actions">
            <button type="button" onClick={() => dialog.current?.close()}>Cancel</button>
            <button type="submit" className="primary" disabled={busy || username.trim() === "" || firstName.trim() === ""}>
              {busy ? "Creating…" : "Create user"}
            </button>
          </div>
        </form>
      </dialog>
    </>
  )
}

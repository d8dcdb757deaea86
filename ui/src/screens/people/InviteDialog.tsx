/**
 * "Invite": a role, workspaces and how long the link lasts; then the link, shown this once (the server keeps only a
 * digest of its token), with a copy button. Admins invite annotators into their own workspaces.
 */
import { type FormEvent, useRef, useState } from "react"
import type { WorkspaceId } from "../../../../src/domain/Ids.js"
import type { InvitedRole } from "../../../../src/domain/Invitation.js"
import type { Workspace } from "../../../../src/domain/Workspace.js"
import { invite } from "../../data/accounts.js"
import { appBase, errorMessage } from "../../data/client.js"
import { inviteLink } from "../../data/roster.js"
import { WorkspaceChecks } from "./WorkspaceChecks.js"

const EXPIRIES: ReadonlyArray<{ readonly hours: number; readonly label: string }> = [
  { hours: 24, label: "1 day" },
  { hours: 7 * 24, label: "7 days" },
  { hours: 30 * 24, label: "30 days" }
]

export const InviteDialog = (props: { readonly workspaces: ReadonlyArray<Workspace>; readonly roles: ReadonlyArray<InvitedRole> }) => {
  const dialog = useRef<HTMLDialogElement>(null)
  const [role, setRole] = useState<InvitedRole>("annotator")
  const [chosen, setChosen] = useState<ReadonlySet<WorkspaceId>>(new Set())
  const [hours, setHours] = useState(7 * 24)
  const [link, setLink] = useState<string | undefined>(undefined)
  const [copied, setCopied] = useState("")
  const [failure, setFailure] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)

  const open = () => {
    setRole("annotator")
    setChosen(new Set(props.workspaces.length === 1 ? props.workspaces.map((w) => w.id) : []))
    setHours(7 * 24)
    setLink(undefined)
    setCopied("")
    setFailure(undefined)
    dialog.current?.showModal()
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setFailure(undefined)
    try {
      const created = await invite({ role, workspace_ids: [...chosen], expires_in_hours: hours })
      setLink(inviteLink(appBase(), created.token))
    } catch (error) {
      setFailure(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link ?? "")
      setCopied("Link copied to the clipboard.")
    } catch {
      setCopied("Copying is not allowed here: select the link and copy it.")
    }
  }
  return (
    <>
      <button type="button" className="primary" onClick={open}>Invite</button>
      <dialog ref={dialog} className="confirm-dialog people-dialog" aria-labelledby="invite-dialog-title">
        <h2 id="invite-dialog-title">{link === undefined ? "Invite someone" : "Invitation link"}</h2>
        {link === undefined ? (
          <form onSubmit={(e) => void submit(e)} className="people-form">
            <fieldset className="role-choice">
              <legend>Role</legend>
              {props.roles.map((r) => (
                <label key={r} htmlFor={`invite-role-${r}`}>
                  <input id={`invite-role-${r}`} type="radio" name="invite-role" value={r} checked={role === r}
                    onChange={() => setRole(r)} />
                  {r === "admin" ? "Admin (manages datasets)" : "Annotator (answers records)"}
                </label>
              ))}
            </fieldset>
            <WorkspaceChecks legend="Workspaces" workspaces={props.workspaces} chosen={chosen} onChange={setChosen} idPrefix="invite-ws" />
            <label htmlFor="invite-expiry">The link works for</label>
            <select id="invite-expiry" value={hours} onChange={(e) => setHours(Number(e.target.value))}>
              {EXPIRIES.map((e) => <option key={e.hours} value={e.hours}>{e.label}</option>)}
            </select>
            {failure === undefined ? null : <p role="alert" className="error">{failure}</p>}
            <div className="confirm-actions">
              <button type="button" onClick={() => dialog.current?.close()}>Cancel</button>
              <button type="submit" className="primary" disabled={busy || chosen.size === 0}>
                {busy ? "Creating…" : "Create link"}
              </button>
            </div>
          </form>
        ) : (
          <div className="people-form">
            <p>Send this link to the person you invite. It is shown only now: copy it before closing.</p>
            <div className="invite-link">
              <input readOnly aria-label="Invitation link" value={link} onFocus={(e) => e.target.select()} />
              <button type="button" className="primary" onClick={() => void copy()}>Copy link</button>
            </div>
            <p role="status" className="muted">{copied}</p>
            <div className="confirm-actions">
              <button type="button" onClick={() => dialog.current?.close()}>Done</button>
            </div>
          </div>
        )}
      </dialog>
    </>
  )
}

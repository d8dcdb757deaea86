/**
 * One workspace in the list: its name (renamed in place by owners), members and datasets, the members button, and
 * delete, which the server allows only for a workspace without datasets (the button says so when it is not).
 */
import { type FormEvent, useRef, useState } from "react"
import type { Workspace } from "../../../../src/domain/Workspace.js"
import { deleteWorkspace, renameWorkspace } from "../../data/accounts.js"
import { errorMessage } from "../../data/client.js"

export const WorkspaceRow = (props: {
  readonly workspace: Workspace
  readonly members: number | undefined
  readonly datasets: number
  readonly owner: boolean
  readonly showMembers: () => void
  readonly onDone: (message: string) => void
}) => {
  const { workspace } = props
  const [renaming, setRenaming] = useState(false)
  const [name, setName] = useState(workspace.name)
  const [failure, setFailure] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const confirm = useRef<HTMLDialogElement>(null)
  const reasonId = `delete-reason-${workspace.id}`

  const run = async (action: () => Promise<string>) => {
    setBusy(true)
    setFailure(undefined)
    try {
      props.onDone(await action())
      return true
    } catch (error) {
      setFailure(errorMessage(error))
      return false
    } finally {
      setBusy(false)
    }
  }
  const rename = async (event: FormEvent) => {
    event.preventDefault()
    const next = name.trim()
    if (next === workspace.name) return setRenaming(false)
    if (await run(async () => { await renameWorkspace(workspace.id, next); return `${workspace.name} is now ${next}.` })) setRenaming(false)
  }
  return (
    <tr>
      <td data-label="Name">
        {renaming ? (
          <form className="workspace-rename" onSubmit={(e) => void rename(e)}>
            <label htmlFor={`rename-${workspace.id}`} className="visually-hidden">New name of {workspace.name}</label>
            <input id={`rename-${workspace.id}`} value={name} autoFocus required onChange={(e) => setName(e.target.value)} />
            <button type="submit" className="primary" disabled={busy || name.trim() === ""}>Save</button>
            <button type="button" onClick={() => { setRenaming(false); setName(workspace.name); setFailure(undefined) }}>Cancel</button>
          </form>
        ) : workspace.name}
        {failure === undefined ? null : <p role="alert" className="error">{failure}</p>}
      </td>
      <td data-label="Members">{props.members ?? "…"}</td>
      <td data-label="Datasets">{props.datasets}</td>
      <td data-label="Actions">
        <div className="workspace-actions">
          <button type="button" onClick={props.showMembers}>
            Members<span className="visually-hidden"> of {workspace.name}</span>
          </button>
          {props.owner && !renaming ? (
            <button type="button" onClick={() => { setName(workspace.name); setRenaming(true) }}>
              Rename<span className="visually-hidden"> {workspace.name}</span>
            </button>
          ) : null}
          {props.owner ? (
            <>
              <button type="button" className="danger" disabled={busy || props.datasets > 0}
                aria-describedby={props.datasets > 0 ? reasonId : undefined}
                onClick={() => { setFailure(undefined); confirm.current?.showModal() }}>
                Delete<span className="visually-hidden"> {workspace.name}</span>
              </button>
              {props.datasets > 0
                ? <span id={reasonId} className="muted workspace-reason">Holds {props.datasets} dataset{props.datasets === 1 ? "" : "s"}: delete them first.</span>
                : null}
            </>
          ) : null}
        </div>
        <dialog ref={confirm} className="confirm-dialog" aria-labelledby={`confirm-${workspace.id}`}>
          <h2 id={`confirm-${workspace.id}`}>Delete the workspace {workspace.name}?</h2>
          <p>Its members lose access to it. It holds no datasets. This cannot be undone.</p>
          {failure === undefined ? null : <p role="alert" className="error">{failure}</p>}
          <div className="confirm-actions">
            <button type="button" onClick={() => confirm.current?.close()}>Cancel</button>
            <button type="button" className="danger" disabled={busy}
              onClick={() => void run(async () => {
                await deleteWorkspace(workspace.id)
                confirm.current?.close()
                return `${workspace.name} was deleted.`
              })}>
              {busy ? "Deleting…" : `Delete ${workspace.name}`}
            </button>
          </div>
        </dialog>
      </td>
    </tr>
  )
}

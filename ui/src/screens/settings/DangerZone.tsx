/** Danger zone: deleting the dataset, behind a dialog where the user types the dataset's name. */
import { type FormEvent, useRef, useState } from "react"
import { errorMessage } from "../../data/client.js"

export const DangerZone = (props: { readonly name: string; readonly remove: () => Promise<unknown>; readonly onDeleted: () => void }) => {
  const dialog = useRef<HTMLDialogElement>(null)
  const [typed, setTyped] = useState("")
  const [failure, setFailure] = useState<string | undefined>(undefined)
  const [deleting, setDeleting] = useState(false)
  const matches = typed === props.name
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!matches) return
    setDeleting(true)
    setFailure(undefined)
    try {
      await props.remove()
      dialog.current?.close()
      props.onDeleted()
    } catch (error) {
      setFailure(errorMessage(error))
    } finally {
      setDeleting(false)
    }
  }
  return (
    <section aria-labelledby="danger-heading" className="settings-list danger-zone">
      <h2 id="danger-heading">Danger zone</h2>
      <div className="panel">
        <p>Deleting the dataset removes its records, responses, suggestions and settings. It cannot be undone.</p>
        <button type="button" className="danger" onClick={() => { setTyped(""); setFailure(undefined); dialog.current?.showModal() }}>
          Delete dataset
        </button>
      </div>
      <dialog ref={dialog} aria-labelledby="delete-heading" className="delete-dialog">
        <form onSubmit={(e) => void submit(e)}>
          <h2 id="delete-heading">Delete “{props.name}”?</h2>
          <label htmlFor="delete-confirm">Type the dataset's name, <strong>{props.name}</strong>, to confirm</label>
          <input id="delete-confirm" value={typed} autoComplete="off" onChange={(e) => setTyped(e.target.value)} />
          {failure === undefined ? null : <p role="alert" className="error">{failure}</p>}
          <div className="settings-save">
            <button type="button" onClick={() => dialog.current?.close()}>Cancel</button>
            <button type="submit" className="danger" disabled={!matches || deleting}>{deleting ? "Deleting…" : "Delete this dataset"}</button>
          </div>
        </form>
      </dialog>
    </section>
  )
}

/** The `?` sheet: every key of the annotation view, from the same table the handler uses. */
import { forwardRef } from "react"
import { HELP } from "../../keyboard/shortcuts.js"
import { REVIEW_HELP } from "./review/keys.js"

/** `review`: review mode's keys instead of the focus view's. */
export const HelpSheet = forwardRef<HTMLDialogElement, { readonly review?: boolean }>(function HelpSheet(props, ref) {
  const rows = props.review === true ? REVIEW_HELP : HELP
  return (
    <dialog ref={ref} className="help-sheet" aria-labelledby="help-title">
      <h2 id="help-title">{props.review === true ? "Keyboard shortcuts in review mode" : "Keyboard shortcuts"}</h2>
      <p className="muted">Keys do nothing while you type in a text box; Esc leaves it.</p>
      <table>
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.keys}>
              <td><kbd>{row.keys}</kbd></td>
              <td>{row.does}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form method="dialog">
        <button type="submit" className="primary">Close <kbd aria-hidden="true">Esc</kbd></button>
      </form>
    </dialog>
  )
})

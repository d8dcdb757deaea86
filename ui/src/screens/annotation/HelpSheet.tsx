/** The `?` sheet: every key of the annotation view, from the same table the handler uses. */
import { forwardRef } from "react"
import { HELP } from "../../keyboard/shortcuts.js"

export const HelpSheet = forwardRef<HTMLDialogElement>(function HelpSheet(_props, ref) {
  return (
    <dialog ref={ref} className="help-sheet" aria-labelledby="help-title">
      <h2 id="help-title">Keyboard shortcuts</h2>
      <p className="muted">Keys do nothing while you type in a text box; Esc leaves it.</p>
      <table>
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {HELP.map((row) => (
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

/**
 * The notice after a submit, draft or discard, with its undo (a button, and Ctrl+Z while it shows). It lives in one
 * `status` region that stays on the page, so screen readers announce each notice as it appears.
 */
import type { ResponseStatus } from "../../../../src/domain/Response.js"
import { KEYS } from "../../keyboard/shortcuts.js"

const DONE: Record<ResponseStatus, string> = { submitted: "Submitted", draft: "Saved as draft", discarded: "Discarded" }

interface Props {
  /** The save that can be undone, or nothing to show. */
  readonly change: { readonly status: ResponseStatus; readonly position: number } | undefined
  readonly error: string | undefined
  readonly onUndo: () => void
}

export const UndoToast = ({ change, error, onUndo }: Props) => (
  <div className="toast-region" role="status">
    {error !== undefined
      ? <p className="toast" role="alert">Could not undo: {error}</p>
      : change !== undefined
      ? (
        <p className="toast">
          <span>{DONE[change.status]}: record {change.position + 1}.</span>
          <button type="button" className="secondary" onClick={onUndo} aria-keyshortcuts="Control+Z">
            Undo <kbd aria-hidden="true">{KEYS.undo}</kbd>
          </button>
        </p>
      )
      : null}
  </div>
)

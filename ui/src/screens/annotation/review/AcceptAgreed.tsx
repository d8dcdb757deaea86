/**
 * "Accept all agreed": where every submitted answer to a question agrees (two or more of them), that answer becomes
 * the final one, over every record the view's search and filters match. Asked first, since it writes in bulk; the
 * questions already settled keep their final answer.
 */
import { useRef, useState } from "react"
import type { DatasetId } from "../../../../../src/domain/Ids.js"
import type { SearchRecordsQuery } from "../../../../../src/domain/Search.js"
import { errorMessage } from "../../../data/client.js"
import { acceptAgreed, refreshReview } from "../../../data/review.js"

interface Props {
  readonly datasetId: DatasetId
  readonly query: SearchRecordsQuery | undefined
}

export const AcceptAgreed = ({ datasetId, query }: Props) => {
  const dialog = useRef<HTMLDialogElement>(null)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | undefined>(undefined)
  const [done, setDone] = useState<string | undefined>(undefined)
  const accept = async () => {
    setBusy(true)
    setFailure(undefined)
    try {
      const result = await acceptAgreed(datasetId, query)
      dialog.current?.close()
      setDone(
        result.settled === 0
          ? "No agreed answer was left to accept."
          : `Accepted ${result.settled} agreed ${result.settled === 1 ? "answer" : "answers"} on ${result.records} ${
            result.records === 1 ? "record" : "records"
          }.`
      )
      await refreshReview(datasetId)
    } catch (error) {
      setFailure(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <>
      <button
        type="button"
        className="secondary"
        onClick={() => {
          setFailure(undefined)
          setDone(undefined)
          dialog.current?.showModal()
        }}
      >
        Accept all agreed…
      </button>
      <span className="review-accepted" role="status">{done ?? ""}</span>
      <dialog ref={dialog} className="confirm-dialog" aria-labelledby="accept-agreed-title" aria-describedby="accept-agreed-text">
        <h2 id="accept-agreed-title">Accept every agreed answer?</h2>
        <p id="accept-agreed-text">
          Each question whose submitted answers all agree (at least two of them) is settled with that answer, on{" "}
          {query === undefined ? "every record of the dataset" : "every record the search and filters match"}. Questions
          already settled keep their final answer; you can unsettle any of them afterwards.
        </p>
        {failure === undefined ? null : <p role="alert" className="error">{failure}</p>}
        <div className="confirm-actions">
          <button type="button" onClick={() => dialog.current?.close()}>Cancel</button>
          <button type="button" className="primary" disabled={busy} onClick={() => void accept()}>
            {busy ? "Accepting…" : "Accept agreed answers"}
          </button>
        </div>
      </dialog>
    </>
  )
}

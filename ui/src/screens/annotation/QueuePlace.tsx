/**
 * "Why here": beside "Record n of N", why the record is in the caller's queue (assigned to them, or taken from the
 * pool), its priority when one is set, and until when a pool record is reserved for them. All of it is text, for
 * screen readers as for the eye; the badges' borders only repeat it.
 */
import { clockTime, type QueuePlace, REASON_TEXT, suggestionsOf } from "../../data/queue.js"
import type { DatasetRecord } from "../../../../src/domain/Record.js"
import type { Suggestion } from "../../../../src/domain/Suggestion.js"
import "./queue.css"

export const QueuePlaceBadges = (props: { readonly place: QueuePlace | undefined }) => {
  const { place } = props
  if (place === undefined) return null
  const until = place.leaseExpiresAt === null ? undefined : clockTime(place.leaseExpiresAt)
  return (
    <span className="queue-place" data-testid="queue-place">
      {" "}
      <span className={`badge queue-reason reason-${place.reason}`}>{REASON_TEXT[place.reason]}</span>
      {place.priority === 0 ? null : <> <span className="badge queue-priority">priority {place.priority}</span></>}
      {until === undefined ? null : (
        <>
          {" "}
          <span className="queue-lease" title={`Other annotators will not get this record until ${until}.`}>
            reserved for you until {until}
            <span className="visually-hidden">: other annotators will not get it until then</span>
          </span>
        </>
      )}
    </span>
  )
}

/**
 * After the caller submits or discards a record of a blind dataset, its suggestions, which the server withheld
 * until then, are read and shown on it (a draft lifts nothing).
 */
export const revealSuggestions = (
  saved: DatasetRecord,
  reveal: (id: string, suggestions: ReadonlyArray<Suggestion>) => void
): void => {
  const status = saved.responses?.[0]?.status
  if (status !== "submitted" && status !== "discarded") return
  suggestionsOf(saved.id).then((suggestions) => reveal(saved.id, suggestions), () => undefined)
}

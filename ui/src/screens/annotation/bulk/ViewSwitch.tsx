/** Focus | Bulk: one record at a time, or a page of them answered together (pending, draft and discarded queues). */
import "./bulk.css"

export type View = "focus" | "bulk"

/** The queues the bulk view serves: submitted answers are changed one record at a time. */
export const hasBulkView = (queue: string) => queue === "pending" || queue === "draft" || queue === "discarded"

/** `view` is undefined while neither is shown (review mode): either button then leaves it. */
export const ViewSwitch = (props: { readonly view: View | undefined; readonly onView: (view: View) => void }) => (
  <div className="view-switch" role="group" aria-label="View">
    {(["focus", "bulk"] as const).map((view) => (
      <button
        key={view}
        type="button"
        className="secondary"
        aria-pressed={props.view === view}
        onClick={() => props.onView(view)}
      >
        {view === "focus" ? "Focus" : "Bulk"}
      </button>
    ))}
  </div>
)

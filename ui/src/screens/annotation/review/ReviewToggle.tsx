/** The review-mode switch of the annotation screen (`review=1` in the URL), shown to owners and admins only. */
import { setSearch } from "../../../router.js"

export const ReviewToggle = (props: { readonly on: boolean }) => (
  <button
    type="button"
    className="secondary review-toggle"
    aria-pressed={props.on}
    title={props.on ? "Back to answering as yourself" : "See every annotator's responses and where they disagree"}
    onClick={() =>
      setSearch({ review: props.on ? undefined : "1", review_at: undefined, review_show: undefined, view: undefined }, {
        replace: false
      })}
  >
    Review
  </button>
)

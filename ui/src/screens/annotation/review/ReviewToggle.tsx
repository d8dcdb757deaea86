/** The review-mode switch of the annotation screen (`review=1` in the URL), shown to those who may review. */
import { NO_REVIEW_PARAMS } from "../../../data/reviewQuery.js"
import { setSearch } from "../../../router.js"

export const ReviewToggle = (props: { readonly on: boolean }) => (
  <button
    type="button"
    className="secondary review-toggle"
    aria-pressed={props.on}
    title={props.on ? "Back to answering as yourself" : "See every annotator's answers, and settle the final ones"}
    onClick={() =>
      setSearch({ ...NO_REVIEW_PARAMS, review: props.on ? undefined : "1", view: undefined }, { replace: false })}
  >
    Review
  </button>
)

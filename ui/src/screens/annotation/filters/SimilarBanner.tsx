/** While the queue shows records similar to one: which record, which vector, most or least, and the way back. */
import { useQuery } from "@tanstack/react-query"
import { useId } from "react"
import type { DatasetId } from "../../../../../src/domain/Ids.js"
import { vectorSettings } from "../../../data/queries.js"
import { type Similar, SIMILAR_ORDERS } from "../../../data/search.js"
import { ORDER_TEXT } from "./FindSimilar.js"

export const SimilarBanner = (props: {
  readonly datasetId: DatasetId
  readonly similar: Similar
  readonly onSimilar: (similar: Similar | undefined) => void
}) => {
  const { similar } = props
  const id = useId()
  const title = useQuery(vectorSettings(props.datasetId)).data?.find((s) => s.name === similar.vector)?.title ??
    similar.vector
  return (
    <section className="similar-banner" aria-labelledby={`${id}-title`}>
      <p id={`${id}-title`}>
        Records similar to <code title={similar.recordId}>{similar.recordId.slice(0, 8)}</code> by {title}
      </p>
      <label htmlFor={`${id}-order`}>Similarity order</label>
      <select
          id={`${id}-order`}
          value={similar.order}
          onChange={(e) => {
            const order = SIMILAR_ORDERS.find((o) => o === e.target.value)
            if (order !== undefined) props.onSimilar({ ...similar, order })
          }}
        >
          {SIMILAR_ORDERS.map((o) => <option key={o} value={o}>{ORDER_TEXT[o]}</option>)}
        </select>
      <button type="button" className="secondary" onClick={() => props.onSimilar(undefined)}>Back to the queue</button>
    </section>
  )
}

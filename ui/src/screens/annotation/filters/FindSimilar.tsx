/**
 * "Find similar" on a record card: pick a vector setting and most or least similar; the queue then holds the records
 * nearest to this one (`similar`, `vector`, `order` in the URL). The search is tried once first, so a record without
 * that vector says so here (the server's `MissingVector`) instead of emptying the queue.
 */
import { useQuery } from "@tanstack/react-query"
import { useId, useState } from "react"
import type { DatasetId, RecordId } from "../../../../../src/domain/Ids.js"
import { call, errorMessage } from "../../../data/client.js"
import { vectorSettings } from "../../../data/queries.js"
import { SIMILAR_ORDERS, type SimilarOrder } from "../../../data/search.js"
import { setSearch } from "../../../router.js"
import "./filters.css"

export const ORDER_TEXT: Record<SimilarOrder, string> = { most_similar: "Most similar", least_similar: "Least similar" }

export const FindSimilar = (props: { readonly datasetId: DatasetId; readonly recordId: RecordId }) => {
  const settings = useQuery(vectorSettings(props.datasetId)).data ?? []
  const id = useId()
  const [vector, setVector] = useState("")
  const [order, setOrder] = useState<SimilarOrder>("most_similar")
  const [error, setError] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  if (settings.length === 0) return null
  const name = settings.some((s) => s.name === vector) ? vector : settings[0]?.name ?? ""
  const find = async () => {
    setBusy(true)
    setError(undefined)
    try {
      await call((c) =>
        c.search.mine({
          path: { id: props.datasetId },
          urlParams: { offset: 0, limit: 1 },
          payload: { query: { vector: { name, record_id: props.recordId, order } } }
        })
      )
      setSearch({ similar: props.recordId, vector: name, order, _page: undefined })
    } catch (e) {
      setError(errorMessage(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <details className="find-similar">
      <summary>Find similar</summary>
      <form
        className="find-similar-form"
        onSubmit={(event) => {
          event.preventDefault()
          void find()
        }}
      >
        <label htmlFor={`${id}-vector`}>Vector</label>
        <select id={`${id}-vector`} value={name} onChange={(e) => setVector(e.target.value)}>
          {settings.map((s) => <option key={s.id} value={s.name}>{s.title}</option>)}
        </select>
        <fieldset className="similar-order">
          <legend>Order</legend>
          {SIMILAR_ORDERS.map((o) => (
            <label key={o} className="check">
              <input type="radio" name={`${id}-order`} value={o} checked={order === o} onChange={() => setOrder(o)} />
              {ORDER_TEXT[o]}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="secondary" disabled={busy}>Show similar records</button>
        {error === undefined ? null : <p role="alert" className="error">{error}</p>}
      </form>
    </details>
  )
}

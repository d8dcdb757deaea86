/** Multi-key sort: add keys (up to the contract's ten), each ascending or descending; changes apply at once. */
import { useId, useState } from "react"
import { MAX_SORT, type SortOrder, sortKeyId } from "../../../data/search.js"
import { type SortOption, sortLabel } from "./options.js"

interface Props {
  readonly options: ReadonlyArray<SortOption>
  readonly sort: ReadonlyArray<SortOrder>
  readonly onSort: (sort: ReadonlyArray<SortOrder>) => void
}

const ORDER_LABELS = { asc: "Ascending", desc: "Descending" } as const

export const SortPanel = (props: Props) => {
  const { onSort, options, sort } = props
  const id = useId()
  const used = new Set(sort.map((s) => sortKeyId(s.key)))
  const free = options.filter((o) => !used.has(sortKeyId(o.key)))
  const [chosen, setChosen] = useState("")
  const groups = [...new Set(free.map((o) => o.group))]
  const add = () => {
    const option = free.find((o) => sortKeyId(o.key) === chosen) ?? free[0]
    if (option === undefined) return
    onSort([...sort, { key: option.key, order: "asc" }])
    setChosen("")
  }
  return (
    <details className="filter-panel sort-panel">
      <summary>Sort{sort.length === 0 ? "" : ` (${sort.length})`}</summary>
      <div className="filter-body">
        {sort.length === 0 ? <p className="muted">No sort: the server's own order for you.</p> : (
          <ol className="sort-keys">
            {sort.map((s, i) => {
              const label = sortLabel(options, s.key)
              return (
                <li key={sortKeyId(s.key)}>
                  <span>{label}</span>
                  <select
                    aria-label={`Order of ${label}`}
                    value={s.order}
                    onChange={(e) => {
                      const order = e.target.value === "desc" ? "desc" : "asc"
                      onSort(sort.map((t, j) => (j === i ? { ...t, order } : t)))
                    }}
                  >
                    <option value="asc">{ORDER_LABELS.asc}</option>
                    <option value="desc">{ORDER_LABELS.desc}</option>
                  </select>
                  <button type="button" className="secondary" onClick={() => onSort(sort.filter((_, j) => j !== i))}
                    aria-label={`Remove sort by ${label}`}>
                    Remove
                  </button>
                </li>
              )
            })}
          </ol>
        )}
        {sort.length >= MAX_SORT || free.length === 0 ? null : (
          <div className="row">
            <label htmlFor={`${id}-key`}>Sort by</label>
            <select id={`${id}-key`} value={chosen} onChange={(e) => setChosen(e.target.value)}>
              <option value="">Choose…</option>
              {groups.map((group) => (
                <optgroup key={group} label={group}>
                  {free.filter((o) => o.group === group).map((o) => (
                    <option key={sortKeyId(o.key)} value={sortKeyId(o.key)}>{o.label}</option>
                  ))}
                </optgroup>
              ))}
            </select>
            <button type="button" className="secondary" disabled={chosen === ""} onClick={add}>Add sort</button>
          </div>
        )}
      </div>
    </details>
  )
}

/** Queue, text search and metadata filters. All of it lives in the URL, so a view is a link. */
import { useQueries, useQuery } from "@tanstack/react-query"
import { useState } from "react"
import type { DatasetId } from "../../../../src/domain/Ids.js"
import type { MetadataProperty } from "../../../../src/domain/MetadataProperty.js"
import type { MetadataMetrics } from "../../../../src/domain/Search.js"
import { metadataMetrics, metadataProperties, myProgress } from "../../data/queries.js"
import { type MetadataFilter, type Queue, QUEUES, type TermValue } from "../../data/records.js"

interface Props {
  readonly datasetId: DatasetId
  readonly queue: Queue
  readonly text: string
  readonly metadata: Readonly<Record<string, MetadataFilter>>
  readonly onQueue: (queue: Queue) => void
  readonly onText: (text: string) => void
  readonly onMetadata: (metadata: Readonly<Record<string, MetadataFilter>>) => void
}

const LABELS: Record<Queue, string> = { pending: "Pending", draft: "Draft", submitted: "Submitted", discarded: "Discarded" }

const isTerm = (value: unknown): value is TermValue =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean"

const numberOrUndefined = (raw: string) => (raw.trim() === "" || Number.isNaN(Number(raw)) ? undefined : Number(raw))

const PropertyFilter = (props: {
  readonly property: MetadataProperty
  readonly metrics: MetadataMetrics | undefined
  readonly filter: MetadataFilter | undefined
  readonly onChange: (filter: MetadataFilter | undefined) => void
}) => {
  const { filter, metrics, property } = props
  if (property.settings.type === "terms") {
    const terms = metrics?.type === "terms" ? metrics.values.map((v) => v.term).filter(isTerm) : []
    const chosen = filter?.kind === "terms" ? filter.values : []
    return (
      <fieldset className="filter">
        <legend>{property.title}</legend>
        {terms.length === 0 ? <p className="muted">No values yet.</p> : null}
        {terms.map((term) => (
          <label key={String(term)} className="check">
            <input
              type="checkbox"
              checked={chosen.includes(term)}
              onChange={(e) => {
                const next = e.target.checked ? [...chosen, term] : chosen.filter((t) => t !== term)
                props.onChange(next.length === 0 ? undefined : { kind: "terms", values: next })
              }}
            />
            {String(term)}
          </label>
        ))}
      </fieldset>
    )
  }
  const bounds = metrics !== undefined && metrics.type !== "terms" ? metrics : undefined
  const range = filter?.kind === "range" ? filter : { kind: "range" as const }
  const set = (key: "ge" | "le", raw: string) => {
    const { [key]: _dropped, ...rest } = range
    const value = numberOrUndefined(raw)
    const next: MetadataFilter = value === undefined ? rest : { ...rest, [key]: value }
    props.onChange(next.kind === "range" && next.ge === undefined && next.le === undefined ? undefined : next)
  }
  return (
    <fieldset className="filter">
      <legend>{property.title}</legend>
      <label>
        From
        <input
          type="number"
          inputMode="decimal"
          placeholder={bounds?.min === null || bounds === undefined ? "" : String(bounds.min)}
          value={range.ge ?? ""}
          onChange={(e) => set("ge", e.target.value)}
        />
      </label>
      <label>
        To
        <input
          type="number"
          inputMode="decimal"
          placeholder={bounds?.max === null || bounds === undefined ? "" : String(bounds.max)}
          value={range.le ?? ""}
          onChange={(e) => set("le", e.target.value)}
        />
      </label>
    </fieldset>
  )
}

const MetadataFilters = (props: Props) => {
  const properties = useQuery(metadataProperties(props.datasetId)).data ?? []
  const metrics = useQueries({ queries: properties.map((p) => metadataMetrics(p.id)) })
  const [draft, setDraft] = useState(props.metadata)
  if (properties.length === 0) return null
  const count = Object.keys(props.metadata).length
  return (
    <details className="filters">
      <summary>Metadata filters{count === 0 ? "" : ` (${count})`}</summary>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          props.onMetadata(draft)
        }}
      >
        {properties.map((property, i) => (
          <PropertyFilter
            key={property.id}
            property={property}
            metrics={metrics[i]?.data}
            filter={draft[property.name]}
            onChange={(filter) => {
              const { [property.name]: _old, ...rest } = draft
              setDraft(filter === undefined ? rest : { ...rest, [property.name]: filter })
            }}
          />
        ))}
        <div className="row">
          <button type="submit" className="primary">Apply filters</button>
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setDraft({})
              props.onMetadata({})
            }}
          >
            Clear
          </button>
        </div>
      </form>
    </details>
  )
}

export const ControlPanel = (props: Props) => {
  const mine = useQuery(myProgress(props.datasetId)).data
  const [text, setText] = useState(props.text)
  return (
    <div className="control-panel">
      <div className="queues" role="group" aria-label="Queue">
        {QUEUES.map((queue) => (
          <button
            key={queue}
            type="button"
            className="queue"
            aria-pressed={props.queue === queue}
            onClick={() => props.onQueue(queue)}
          >
            {LABELS[queue]}
            {mine === undefined ? null : <span className="count">{mine[queue]}</span>}
          </button>
        ))}
      </div>
      <form
        role="search"
        className="search"
        onSubmit={(event) => {
          event.preventDefault()
          props.onText(text)
        }}
      >
        <input
          type="search"
          aria-label="Search records"
          placeholder="Search records"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit" className="secondary">Search</button>
      </form>
      <MetadataFilters {...props} />
    </div>
  )
}

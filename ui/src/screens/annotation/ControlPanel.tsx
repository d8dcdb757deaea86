/**
 * Queue, text search, sort, metadata / response / suggestion filters and the "find similar" banner. All of it lives
 * in the URL (`data/search.ts`), so a view is a link; active sorts and filters show as removable chips. In a blind
 * dataset an annotator is offered no suggestion filter or sort (the server refuses them until they have answered).
 */
import { useQueries, useQuery } from "@tanstack/react-query"
import { useId, useState } from "react"
import { useSynced } from "./filters/useSynced.js"
import type { DatasetId } from "../../../../src/domain/Ids.js"
import type { MetadataProperty } from "../../../../src/domain/MetadataProperty.js"
import type { MetadataMetrics } from "../../../../src/domain/Search.js"
import {
  metadataMetrics,
  metadataProperties,
  myProgress,
  questions as questionsQuery,
  suggestionAgents
} from "../../data/queries.js"
import { usePendingSource } from "../../data/queue.js"
import { type MetadataFilter, type Queue, QUEUES, type TermValue } from "../../data/records.js"
import { type QueueQuery, RECORD_STATUSES, usesQueue } from "../../data/search.js"
import { Chips, chipsOf } from "./filters/Chips.js"
import { sortOptions } from "./filters/options.js"
import { ResponseFilters } from "./filters/ResponseFilters.js"
import { SimilarBanner } from "./filters/SimilarBanner.js"
import { SortPanel } from "./filters/SortPanel.js"
import { SuggestionFilters } from "./filters/SuggestionFilters.js"
import "./filters/filters.css"

interface Props {
  readonly datasetId: DatasetId
  readonly query: QueueQuery
  /** A new view: the caller puts it in the URL (and goes back to the first record). */
  readonly onChange: (query: QueueQuery) => void
  /** The caller annotates blind: no suggestions before they answer, so none to filter or sort by. */
  readonly blind?: boolean | undefined
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

const MetadataFilters = (props: {
  readonly properties: ReadonlyArray<MetadataProperty>
  readonly metadata: Readonly<Record<string, MetadataFilter>>
  readonly onMetadata: (metadata: Readonly<Record<string, MetadataFilter>>) => void
}) => {
  const { properties } = props
  const metrics = useQueries({ queries: properties.map((p) => metadataMetrics(p.id)) })
  const [draft, setDraft] = useSynced(props.metadata)
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

const RECORD_STATUS_TEXT = { any: "Any", pending: "Pending", completed: "Completed" } as const

export const ControlPanel = (props: Props) => {
  const { datasetId, onChange, query } = props
  const id = useId()
  const mine = useQuery(myProgress(datasetId)).data
  const { count: pending, ownQueue } = usePendingSource(datasetId)
  const properties = useQuery(metadataProperties(datasetId)).data ?? []
  const questions = useQuery(questionsQuery(datasetId)).data ?? []
  const agentItems = useQuery(suggestionAgents(datasetId)).data ?? []
  const agents = Object.fromEntries(agentItems.map((item) => [item.question.name, item.agents]))
  const blind = props.blind === true
  const options = sortOptions(properties, questions).filter((o) => !blind || o.key.kind !== "suggestion")
  const [text, setText] = useState(query.text)
  const chips = chipsOf(query, {
    metadata: Object.fromEntries(properties.map((p) => [p.name, p.title])),
    questions: Object.fromEntries(questions.map((q) => [q.name, q.title]))
  }, options)
  return (
    <div className="control-panel">
      <div className="queues" role="group" aria-label="Queue">
        {QUEUES.map((queue) => (
          <button
            key={queue}
            type="button"
            className="queue"
            aria-pressed={query.queue === queue}
            onClick={() => onChange({ ...query, queue, recordStatus: queue === "pending" ? undefined : query.recordStatus })}
          >
            {LABELS[queue]}
            {queue === "pending"
              ? pending === undefined ? null : <span className="count">{pending.total}{pending.relation === "gte" ? "+" : ""}</span>
              : mine === undefined ? null : <span className="count">{mine[queue]}</span>}
          </button>
        ))}
      </div>
      {query.queue === "pending" ? null : (
        <div className="record-status">
          <label htmlFor={`${id}-record-status`}>Record status</label>
          <select
            id={`${id}-record-status`}
            value={query.recordStatus ?? "any"}
            onChange={(e) =>
              onChange({ ...query, recordStatus: RECORD_STATUSES.find((s) => s === e.target.value) })}
          >
            <option value="any">{RECORD_STATUS_TEXT.any}</option>
            {RECORD_STATUSES.map((s) => <option key={s} value={s}>{RECORD_STATUS_TEXT[s]}</option>)}
          </select>
        </div>
      )}
      <form
        role="search"
        className="search"
        onSubmit={(event) => {
          event.preventDefault()
          onChange({ ...query, text })
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
      <SortPanel options={options} sort={query.sort ?? []} onSort={(sort) => onChange({ ...query, sort })} />
      <MetadataFilters
        properties={properties}
        metadata={query.metadata}
        onMetadata={(metadata) => onChange({ ...query, metadata })}
      />
      <ResponseFilters
        questions={questions}
        filters={query.responses ?? {}}
        onApply={(responses) => onChange({ ...query, responses })}
      />
      {blind ? null : (
        <SuggestionFilters
          questions={questions}
          agents={agents}
          filters={query.suggestions ?? {}}
          onApply={(suggestions) => onChange({ ...query, suggestions })}
        />
      )}
      {query.similar === undefined ? null : (
        <SimilarBanner datasetId={datasetId} similar={query.similar} onSimilar={(similar) => onChange({ ...query, similar })} />
      )}
      <Chips chips={chips} onChange={onChange} />
      {ownQueue === true && query.queue === "pending" && !usesQueue(query)
        ? <p className="muted queue-note" role="note">Sorted: showing the search's order, not your queue's.</p>
        : null}
      {blind ? <p className="muted queue-note" role="note">Blind: suggestions appear after you submit.</p> : null}
    </div>
  )
}

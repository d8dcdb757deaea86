/**
 * `/dataset/:id/annotation-mode`: the control panel, one record at a time with its question form, progress and
 * guidelines. The queue, search, filters and position are in the URL (`_status`, `_search`, `_metadata`, `_page`).
 */
import { useQuery } from "@tanstack/react-query"
import { useEffect, useMemo, useRef } from "react"
import type { DatasetId } from "../../../../src/domain/Ids.js"
import { Markdown } from "../../components/Markdown.js"
import { errorMessage } from "../../data/client.js"
import { dataset as datasetQuery, fields as fieldsQuery, me as meQuery, questions as questionsQuery } from "../../data/queries.js"
import { isQueue, type MetadataFilter, type Queue, useQueue } from "../../data/records.js"
import { KEYS } from "../../keyboard/shortcuts.js"
import { Link, setSearch, useLocation } from "../../router.js"
import { ControlPanel } from "./ControlPanel.js"
import { HelpSheet } from "./HelpSheet.js"
import { ProgressPanel } from "./ProgressPanel.js"
import { RecordWorkspace } from "./RecordWorkspace.js"

const parseMetadata = (raw: string | null): Readonly<Record<string, MetadataFilter>> => {
  if (raw === null) return {}
  try {
    const parsed: unknown = JSON.parse(raw)
    return typeof parsed === "object" && parsed !== null ? parsed as Record<string, MetadataFilter> : {}
  } catch {
    return {}
  }
}

export const AnnotationView = (props: { readonly datasetId: DatasetId }) => {
  const { datasetId } = props
  const { search } = useLocation()
  const status = search.get("_status")
  const queue: Queue = isQueue(status) ? status : "pending"
  const text = search.get("_search") ?? ""
  const metadataRaw = search.get("_metadata")
  const position = Math.max(0, (Number.parseInt(search.get("_page") ?? "1", 10) || 1) - 1)
  const query = useMemo(() => ({ queue, text, metadata: parseMetadata(metadataRaw) }), [queue, text, metadataRaw])

  const me = useQuery(meQuery).data
  const dataset = useQuery(datasetQuery(datasetId))
  const fields = useQuery(fieldsQuery(datasetId))
  const questions = useQuery(questionsQuery(datasetId))
  const records = useQueue(datasetId, query, me?.id)
  const help = useRef<HTMLDialogElement>(null)

  useEffect(() => records.ensure(position), [position, records.records.length, records.ensure])

  const goTo = (index: number) => setSearch({ _page: String(index + 1) })
  const record = records.records[position]
  const failure = dataset.error ?? fields.error ?? questions.error

  if (failure !== null) {
    return (
      <main id="main" className="page">
        <h1>Dataset not available</h1>
        <p role="alert">{errorMessage(failure)}</p>
        <Link to="/">Back to datasets</Link>
      </main>
    )
  }

  return (
    <main id="main" className="annotation">
      <div className="annotation-head">
        <nav aria-label="Breadcrumb" className="breadcrumb">
          <Link to="/">Datasets</Link> <span aria-hidden="true">/</span>{" "}
          <h1>{dataset.data?.name ?? "…"}</h1>
        </nav>
        <button type="button" className="secondary" onClick={() => help.current?.showModal()} aria-keyshortcuts="?">
          Shortcuts <kbd aria-hidden="true">{KEYS.help}</kbd>
        </button>
      </div>
      <ControlPanel
        datasetId={datasetId}
        queue={queue}
        text={text}
        metadata={query.metadata}
        onQueue={(next) => setSearch({ _status: next, _page: undefined })}
        onText={(next) => setSearch({ _search: next, _page: undefined })}
        onMetadata={(next) =>
          setSearch({ _metadata: Object.keys(next).length === 0 ? undefined : JSON.stringify(next), _page: undefined })}
      />
      <div className="annotation-body">
        <div className="annotation-main">
          {record !== undefined && dataset.data !== undefined && fields.data !== undefined &&
              questions.data !== undefined
            ? (
              <>
                <nav className="record-nav" aria-label="Records">
                  <button type="button" className="secondary" disabled={position === 0} onClick={() => goTo(position - 1)}
                    aria-keyshortcuts="ArrowLeft">
                    <kbd aria-hidden="true">{KEYS.previousRecord}</kbd> Previous
                  </button>
                  <span className="muted">
                    Record {position + 1} of {records.totalRelation === "gte"
                      ? <abbr title={`at least ${records.total}: the server stops counting there`}>{records.total}+</abbr>
                      : records.total}
                  </span>
                  <button type="button" className="secondary" disabled={position + 1 >= records.records.length}
                    onClick={() => goTo(position + 1)} aria-keyshortcuts="ArrowRight">
                    Next <kbd aria-hidden="true">{KEYS.nextRecord}</kbd>
                  </button>
                </nav>
                <RecordWorkspace
                  dataset={dataset.data}
                  fields={fields.data}
                  questions={questions.data}
                  record={record}
                  me={me?.id}
                  position={`${position + 1}`}
                  onSaved={(saved) => {
                    records.replace(saved)
                    goTo(position + 1)
                  }}
                  onNext={() => {
                    if (position + 1 < records.records.length) goTo(position + 1)
                  }}
                  onPrevious={() => {
                    if (position > 0) goTo(position - 1)
                  }}
                  onHelp={() => help.current?.showModal()}
                />
              </>
            )
            : (
              <section className="empty" aria-live="polite">
                {records.loading
                  ? <p>Loading records…</p>
                  : records.error !== undefined
                  ? <p role="alert">{errorMessage(records.error)}</p>
                  : position > 0 && records.records.length > 0
                  ? (
                    <>
                      <h2>You reached the end of this queue</h2>
                      <button type="button" className="secondary" onClick={() => goTo(0)}>Back to the first record</button>
                    </>
                  )
                  : <h2>No records in this queue</h2>}
              </section>
            )}
        </div>
        <aside className="annotation-side" aria-label="Dataset">
          <ProgressPanel datasetId={datasetId} />
          {dataset.data?.guidelines == null ? null : (
            <details className="panel guidelines" open>
              <summary>Guidelines</summary>
              <Markdown source={dataset.data.guidelines} />
            </details>
          )}
        </aside>
      </div>
      <HelpSheet ref={help} />
    </main>
  )
}

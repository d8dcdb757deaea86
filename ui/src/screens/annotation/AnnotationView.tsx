/**
 * `/dataset/:id/annotation-mode`: the control panel, one record at a time with its question form, progress and
 * guidelines. The queue, search, sort, filters, "find similar" and position are in the URL (`data/search.ts`, `_page`).
 */
import { useQuery } from "@tanstack/react-query"
import { useEffect, useMemo, useRef, useState } from "react"
import type { DatasetId } from "../../../../src/domain/Ids.js"
import { Markdown } from "../../components/Markdown.js"
import { errorMessage } from "../../data/client.js"
import {
  dataset as datasetQuery,
  fields as fieldsQuery,
  me as meQuery,
  metadataProperties as metadataPropertiesQuery,
  questions as questionsQuery,
  refreshProgress
} from "../../data/queries.js"
import { useBlind, usePendingSource } from "../../data/queue.js"
import { restoreResponse, useQueue } from "../../data/records.js"
import { queryFromUrl, searchBody, urlParams, withoutSuggestions } from "../../data/search.js"
import { actionFor, isTyping, KEYS } from "../../keyboard/shortcuts.js"
import { Link, setSearch, useLocation } from "../../router.js"
import { BulkView } from "./bulk/BulkView.js"
import { hasBulkView, ViewSwitch } from "./bulk/ViewSwitch.js"
import { ControlPanel } from "./ControlPanel.js"
import { HelpSheet } from "./HelpSheet.js"
import { ProgressPanel } from "./ProgressPanel.js"
import { QueuePlaceBadges, revealSuggestions } from "./QueuePlace.js"
import { useMayReview } from "../../data/review.js"
import { ReviewMode } from "./review/ReviewMode.js"
import { ReviewToggle } from "./review/ReviewToggle.js"
import { RecordWorkspace, type SavedChange } from "./RecordWorkspace.js"
import { UndoToast } from "./UndoToast.js"
import { canManage } from "../../data/settings.js"
import { ExportButton } from "../export/ExportDialog.js"
import { assignmentsLink } from "../assignment/selection.js"

/** How long a save can be undone. */
const UNDO_MS = 10_000

export const AnnotationView = (props: { readonly datasetId: DatasetId }) => {
  const { datasetId } = props
  const { search } = useLocation()
  const me = useQuery(meQuery).data
  // A blind annotator searches by no suggestion (the server would refuse it): those parts of a link are left out.
  const blind = useBlind(datasetId, me)
  const urlQuery = useMemo(() => queryFromUrl(search), [search])
  const query = useMemo(() => (blind === true ? withoutSuggestions(urlQuery) : urlQuery), [blind, urlQuery])
  const { queue } = query
  const position = Math.max(0, (Number.parseInt(search.get("_page") ?? "1", 10) || 1) - 1)

  const dataset = useQuery(datasetQuery(datasetId))
  const fields = useQuery(fieldsQuery(datasetId))
  const questions = useQuery(questionsQuery(datasetId))
  const metadataProperties = useQuery(metadataPropertiesQuery(datasetId))
  const bulk = search.get("view") === "bulk" && hasBulkView(queue)
  // The view is part of the queue's key: back from the bulk view, which may have answered records, it loads again.
  const queueQuery = useMemo(() => (bulk ? { ...query, view: "bulk" } : query), [bulk, query])
  const { ownQueue } = usePendingSource(datasetId)
  const records = useQueue(datasetId, queueQuery, me?.id, ownQueue)
  const help = useRef<HTMLDialogElement>(null)
  // Review mode: owners, admins and the workspace's reviewers see every annotator's responses and settle the final
  // answers. Bulk, when chosen after it, wins (and the Review toggle turns bulk off).
  const mayReview = useMayReview(me, dataset.data?.workspace_id)
  const reviewing = search.get("review") === "1" && !bulk && mayReview

  useEffect(() => records.ensure(position), [position, records.records.length, records.ensure])

  // The focus view's form handles `?` with its other keys; the bulk view and review mode have no such form.
  useEffect(() => {
    if (!bulk && !reviewing) return
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isTyping(event.target) || actionFor(event, false)?._tag !== "help") return
      event.preventDefault()
      help.current?.showModal()
    }
    window.addEventListener("keydown", onKey)
    return () => window.removeEventListener("keydown", onKey)
  }, [bulk, reviewing])

  const goTo = (index: number) => setSearch({ _page: String(index + 1) })
  const record = records.records[position]

  // The last save, undoable for UNDO_MS: its response is put back as it was and the record shown again.
  const [undo, setUndo] = useState<(SavedChange & { readonly position: number }) | undefined>(undefined)
  const [undoError, setUndoError] = useState<string | undefined>(undefined)
  useEffect(() => {
    if (undo === undefined && undoError === undefined) return
    const timer = setTimeout(() => {
      setUndo(undefined)
      setUndoError(undefined)
    }, UNDO_MS)
    return () => clearTimeout(timer)
  }, [undo, undoError])
  const undoLast = async () => {
    const change = undo
    if (change === undefined) return
    setUndo(undefined)
    try {
      await restoreResponse(change.saved, change.previous)
      records.replace(change.before)
      void refreshProgress(datasetId)
      goTo(change.position)
    } catch (error) {
      setUndoError(errorMessage(error))
    }
  }
  // With a record on screen its workspace takes the key; past the last record of the queue, this does.
  const undoRef = useRef(undoLast)
  undoRef.current = undoLast
  const showsRecord = record !== undefined
  useEffect(() => {
    if (showsRecord) return
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || actionFor(event, isTyping(event.target))?._tag !== "undo") return
      event.preventDefault()
      void undoRef.current()
    }
    window.addEventListener("keydown", onKey)
    return () => window.removeEventListener("keydown", onKey)
  }, [showsRecord])
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
        {hasBulkView(queue)
          ? (
            <ViewSwitch
              view={bulk ? "bulk" : reviewing ? undefined : "focus"}
              onView={(next) =>
                setSearch({
                  view: next === "bulk" ? next : undefined,
                  _page: undefined,
                  review: undefined,
                  review_at: undefined,
                  review_show: undefined
                })}
            />
          )
          : null}
        {mayReview ? <ReviewToggle on={reviewing} /> : null}
        {canManage(me?.role) ? <Link to={`/dataset/${datasetId}/settings`} className="button">Settings</Link> : null}
        {canManage(me?.role) ? <ExportButton datasetId={datasetId} query={searchBody(query)} /> : null}
        {canManage(me?.role) ? <Link to={assignmentsLink(datasetId, query)} className="button">Assign…</Link> : null}
        <button type="button" className="secondary" onClick={() => help.current?.showModal()} aria-keyshortcuts="?">
          Shortcuts <kbd aria-hidden="true">{KEYS.help}</kbd>
        </button>
      </div>
      <ControlPanel
        datasetId={datasetId}
        query={query}
        blind={blind}
        onChange={(next) => setSearch({ ...urlParams(next), _page: undefined })}
      />
      <div className="annotation-body">
        <div className="annotation-main">
          {reviewing && me !== undefined && dataset.data !== undefined && fields.data !== undefined &&
              questions.data !== undefined
            ? <ReviewMode dataset={dataset.data} fields={fields.data} questions={questions.data} query={query} me={me} />
            : bulk
            ? fields.data === undefined || questions.data === undefined
              ? <p aria-live="polite">Loading records…</p>
              : <BulkView datasetId={datasetId} query={query} fields={fields.data} questions={questions.data} me={me?.id}
                manages={canManage(me?.role)} />
            : record !== undefined && dataset.data !== undefined && fields.data !== undefined &&
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
                      ? <abbr title={`at least ${records.length}: the server stops counting there`}>{records.length}+</abbr>
                      : records.length}
                    {query.similar === undefined || !records.scores.has(record.id)
                      ? null
                      : <> · <span className="similarity">similarity {records.scores.get(record.id)?.toFixed(3)}</span></>}
                    <QueuePlaceBadges place={records.places.get(record.id)} />
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
                  metadataProperties={metadataProperties.data}
                  record={record}
                  me={me?.id}
                  position={`${position + 1}`}
                  onSaved={(saved, change) => {
                    records.replace(saved)
                    if (blind === true) revealSuggestions(saved, records.reveal)
                    setUndoError(undefined)
                    setUndo({ ...change, position })
                    goTo(position + 1)
                  }}
                  onUndo={() => void undoLast()}
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
                  : (
                    <>
                      <h2>No records in this queue</h2>
                      {canManage(me?.role)
                        ? <p><Link to={`/dataset/${datasetId}/import`} className="button">Import records</Link> from a file or the Hugging Face Hub.</p>
                        : null}
                    </>
                  )}
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
      <UndoToast
        change={undo === undefined ? undefined : { status: undo.saved.status, position: undo.position }}
        error={undoError}
        onUndo={() => void undoLast()}
      />
      <HelpSheet ref={help} review={reviewing} />
    </main>
  )
}

/**
 * `/dataset/:id/import`: records from a CSV or JSON Lines file. The file is sampled (header and first rows), its
 * columns mapped to fields, metadata and `external_id` (by name, editable), a few rows previewed as records; then the
 * whole file is read as a stream and sent in batches of 500 to `PUT /datasets/{id}/records/bulk`, with a progress bar
 * (bytes of the file read) and a final report: imported, and what was rejected with the server's reasons.
 */
import { useQuery } from "@tanstack/react-query"
import { useId, useRef, useState } from "react"
import type { Field } from "../../../../src/domain/Field.js"
import type { DatasetId } from "../../../../src/domain/Ids.js"
import type { MetadataProperty } from "../../../../src/domain/MetadataProperty.js"
import { MAX_RECORDS_PER_BULK } from "../../../../src/domain/Record.js"
import { errorMessage } from "../../data/client.js"
import { dataset as datasetQuery, fields as fieldsQuery, me, queryClient } from "../../data/queries.js"
import { allMetadataProperties, canManage, importBatch } from "../../data/settings.js"
import { Link } from "../../router.js"
import {
  autoMap,
  Batcher,
  EXTERNAL_ID,
  fieldTarget,
  IGNORE,
  type ImportRecord,
  type Mapping,
  mappingProblems,
  metadataTarget,
  toRecord
} from "./mapping.js"
import { batchRejections, MAX_REASONS, Preview, type Progress, type Rejection } from "./parts.js"
import { formatOf, type FileFormat, readRows, sample, type SourceRow } from "./source.js"
import "../settings/settings.css"

/** Sends one batch; rejects with the server's typed failure. */
export type SendBatch = (records: ReadonlyArray<ImportRecord>, signal: AbortSignal) => Promise<unknown>

/** The import, given the dataset's fields and metadata properties and how a batch is sent (the server, or a test's stand-in). */
export const ImportFlow = (props: {
  readonly fields: ReadonlyArray<Field>
  readonly metadata: ReadonlyArray<MetadataProperty>
  readonly send: SendBatch
  readonly onFinished?: () => void
}) => {
  const { fields, metadata } = props
  const inputId = useId()
  const [file, setFile] = useState<File | undefined>(undefined)
  const [format, setFormat] = useState<FileFormat>("csv")
  const [columns, setColumns] = useState<ReadonlyArray<string>>([])
  const [rows, setRows] = useState<ReadonlyArray<SourceRow>>([])
  const [mapping, setMapping] = useState<Mapping>({})
  const [readError, setReadError] = useState<string | undefined>(undefined)
  const [phase, setPhase] = useState<"pick" | "map" | "running" | "done" | "stopped">("pick")
  const [progress, setProgress] = useState<Progress>({ bytesRead: 0, rowsRead: 0, imported: 0, rejected: 0 })
  const [rejections, setRejections] = useState<ReadonlyArray<Rejection>>([])
  const abort = useRef<AbortController | undefined>(undefined)

  const pick = async (picked: File | undefined) => {
    setReadError(undefined)
    setPhase("pick")
    setFile(picked)
    if (picked === undefined) return
    const detected = formatOf(picked.name)
    setFormat(detected)
    try {
      const first = await sample(picked, detected)
      setColumns(first.columns)
      setRows(first.rows)
      setMapping(autoMap(first.columns, fields, metadata))
      setPhase("map")
    } catch (error) {
      setReadError(error instanceof Error ? error.message : "The file cannot be read.")
    }
  }

  const run = async () => {
    if (file === undefined) return
    const controller = new AbortController()
    abort.current = controller
    setPhase("running")
    setRejections([])
    let state: Progress = { bytesRead: 0, rowsRead: 0, imported: 0, rejected: 0 }
    const found: Array<Rejection> = []
    const reject = (rejection: Rejection) => {
      if (found.length < MAX_REASONS) found.push(rejection)
    }
    const show = () => {
      setProgress(state)
      setRejections([...found])
    }
    const send = async (batch: ReadonlyArray<{ readonly line: number; readonly record: ImportRecord }>) => {
      try {
        await props.send(batch.map((item) => item.record), controller.signal)
        state = { ...state, imported: state.imported + batch.length }
      } catch (error) {
        if (controller.signal.aborted) return
        state = { ...state, rejected: state.rejected + batch.length }
        for (const rejection of batchRejections(error, batch)) reject(rejection)
      }
    }
    const batcher = new Batcher<{ readonly line: number; readonly record: ImportRecord }>(MAX_RECORDS_PER_BULK)
    try {
      for await (const row of readRows(file, format, controller.signal)) {
        state = { ...state, rowsRead: state.rowsRead + 1, bytesRead: row.bytesRead }
        const result = "error" in row ? { error: row.error } : toRecord(row.values, mapping, fields, metadata)
        if ("error" in result) {
          state = { ...state, rejected: state.rejected + 1 }
          reject({ lines: String(row.line), count: 1, reason: result.error })
          continue
        }
        const full = batcher.add({ line: row.line, record: result.record })
        if (full !== undefined) {
          await send(full)
          show()
        }
        if (controller.signal.aborted) break
      }
      const rest = batcher.flush()
      if (rest !== undefined && !controller.signal.aborted) await send(rest)
      state = { ...state, bytesRead: file.size }
    } catch (error) {
      reject({ lines: "—", count: 0, reason: `The file could not be read to its end: ${errorMessage(error)}` })
    }
    show()
    setPhase(controller.signal.aborted ? "stopped" : "done")
    props.onFinished?.()
  }

  const problems = mappingProblems(mapping, fields)
  const targets = [
    ...fields.map((f) => ({ value: fieldTarget(f.name), label: `Field: ${f.title} (${f.name})` })),
    ...metadata.map((m) => ({ value: metadataTarget(m.name), label: `Metadata: ${m.title} (${m.name})` })),
    { value: EXTERNAL_ID, label: "External id" }
  ]
  const firstValues = rows.find((row) => "values" in row)
  const busy = phase === "running"
  const percent = file === undefined || file.size === 0 ? 0 : Math.round((progress.bytesRead / file.size) * 100)

  return (
    <div className="import-flow settings-list">
      <section className="panel settings-item" aria-labelledby="import-file-heading">
        <h2 id="import-file-heading">1. Pick a file</h2>
        <label htmlFor={inputId}>CSV (with a header row) or JSON Lines file</label>
        <input
          id={inputId}
          type="file"
          accept=".csv,.tsv,.tab,.txt,.jsonl,.ndjson,.json,text/csv,text/tab-separated-values,application/x-ndjson"
          disabled={busy}
          onChange={(e) => void pick(e.target.files?.[0])}
        />
        {file === undefined ? null : (
          <p className="muted">{file.name}: {format === "jsonl" ? "JSON Lines" : format.toUpperCase()}, {Math.max(1, Math.round(file.size / 1024))} kB</p>
        )}
        {readError === undefined ? null : <p role="alert" className="error">{readError}</p>}
      </section>

      {phase === "pick" || file === undefined ? null : (
        <>
          <section className="panel settings-item" aria-labelledby="import-map-heading">
            <h2 id="import-map-heading">2. Map the columns</h2>
            <div className="table-scroll" tabIndex={0} role="region" aria-label="Column mapping">
              <table className="import-mapping">
                <thead>
                  <tr><th scope="col">Column</th><th scope="col">First value</th><th scope="col">Goes to</th></tr>
                </thead>
                <tbody>
                  {columns.map((column) => {
                    const value = firstValues !== undefined && "values" in firstValues ? firstValues.values[column] : undefined
                    const selectId = `${inputId}-map-${column}`
                    return (
                      <tr key={column}>
                        <th scope="row"><label htmlFor={selectId}>{column}</label></th>
                        <td className="muted">{value === undefined ? "" : (typeof value === "string" ? value : JSON.stringify(value)).slice(0, 80)}</td>
                        <td>
                          <select
                            id={selectId}
                            value={mapping[column] ?? IGNORE}
                            disabled={busy}
                            onChange={(e) => setMapping({ ...mapping, [column]: e.target.value })}
                          >
                            <option value={IGNORE}>Ignore</option>
                            {targets.map((t) => <option key={t.value} value={t.value}>{t.label}</option>)}
                          </select>
                        </td>
                      </tr>
                    )
                  })}
                </tbody>
              </table>
            </div>
            {problems.length > 0 ? <ul className="error" aria-label="Mapping problems">{problems.map((p) => <li key={p}>{p}</li>)}</ul> : null}
          </section>
          <section className="panel settings-item" aria-labelledby="import-preview-heading">
            <h2 id="import-preview-heading">3. Preview</h2>
            <Preview rows={rows} mapping={mapping} fields={fields} metadata={metadata} />
          </section>
          <section className="panel settings-item import-progress" aria-labelledby="import-run-heading">
            <h2 id="import-run-heading">4. Import</h2>
            <div className="settings-save">
              <button type="button" className="primary" disabled={busy || problems.length > 0} onClick={() => void run()}>
                {phase === "done" || phase === "stopped" ? "Import again" : "Import records"}
              </button>
              {busy ? <button type="button" onClick={() => abort.current?.abort()}>Stop</button> : null}
            </div>
            {phase === "map" ? null : (
              <>
                <progress max={100} value={percent} aria-label="Import progress" />
                <p role="status" className="import-status">
                  {phase === "running" ? "Importing… " : phase === "stopped" ? "Stopped. " : "Finished. "}
                  {progress.rowsRead} rows read ({percent}% of the file): {progress.imported} imported, {progress.rejected} rejected.
                </p>
              </>
            )}
            {rejections.length > 0 ? (
              <div className="import-report">
                <h3>Rejected</h3>
                <ul>
                  {rejections.map((r, i) => (
                    <li key={i}>{r.count > 1 ? `Rows ${r.lines} (${r.count} rows, sent together)` : `Row ${r.lines}`}: {r.reason}</li>
                  ))}
                </ul>
                {rejections.length >= MAX_REASONS ? <p className="muted">Only the first {MAX_REASONS} reasons are listed.</p> : null}
              </div>
            ) : null}
          </section>
        </>
      )}
    </div>
  )
}

export const ImportRecords = (props: { readonly datasetId: DatasetId }) => {
  const id = props.datasetId
  const user = useQuery(me)
  const manager = canManage(user.data?.role)
  const dataset = useQuery(datasetQuery(id))
  const fields = useQuery({ ...fieldsQuery(id), enabled: manager })
  const metadata = useQuery({ ...allMetadataProperties(id), enabled: manager })
  const failure = dataset.error ?? fields.error ?? metadata.error
  return (
    <main id="main" className="page settings-page">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/">Datasets</Link> <span aria-hidden="true">/</span>{" "}
        {dataset.data === undefined ? null : <><Link to={`/dataset/${id}/settings`}>{dataset.data.name}</Link> <span aria-hidden="true">/</span></>}
        <h1>Import records</h1>
      </nav>
      {user.data !== undefined && !manager ? <p role="alert" className="notice">Only owners and admins can import records.</p> : null}
      {failure !== null ? <p role="alert">{errorMessage(failure)}</p> : null}
      {dataset.data?.status === "draft" ? (
        <p role="alert" className="notice">
          Records can be added once the dataset is published: publish it from its <Link to={`/dataset/${id}/settings`}>settings</Link>.
        </p>
      ) : null}
      {manager && dataset.data?.status === "ready" && fields.data !== undefined && metadata.data !== undefined ? (
        <ImportFlow
          fields={fields.data}
          metadata={metadata.data}
          send={(records, signal) => importBatch(id, records, signal)}
          onFinished={() => void queryClient.invalidateQueries({ queryKey: ["dataset", id] })}
        />
      ) : null}
      <p><Link to={`/dataset/${id}/annotation-mode`}>Open the dataset</Link> · <Link to={`/dataset/${id}/settings`}>Settings</Link></p>
    </main>
  )
}

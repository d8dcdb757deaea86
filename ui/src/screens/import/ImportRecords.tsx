/**
 * `/dataset/:id/import`: records from a file or from a Hugging Face Hub dataset (two tabs).
 *
 * From a CSV or JSON Lines file: the file is sampled (header and first rows), its columns mapped to fields, metadata,
 * `external_id`, questions' suggestions (with score and agent columns), a chosen user's response (with a chosen
 * status) and vectors (by name, editable), a few rows previewed as records; every row can then be checked in the
 * browser against the dataset's settings, with the count and the first rejected rows and why. The import reads the
 * whole file as a stream and sends the valid rows in batches of 500 to `PUT /datasets/{id}/records/bulk`, with a
 * progress bar (bytes of the file read) and a final report: imported, and what was rejected with the reasons.
 *
 * From the Hub: `HubImport.tsx`, the server's import job.
 */
import { useQuery } from "@tanstack/react-query"
import { type KeyboardEvent, useId, useRef, useState } from "react"
import type { Field } from "../../../../src/domain/Field.js"
import type { DatasetId, UserId } from "../../../../src/domain/Ids.js"
import type { MetadataProperty } from "../../../../src/domain/MetadataProperty.js"
import type { Question } from "../../../../src/domain/Question.js"
import { MAX_RECORDS_PER_BULK } from "../../../../src/domain/Record.js"
import { ResponseStatus } from "../../../../src/domain/Response.js"
import type { VectorSettings } from "../../../../src/domain/VectorSettings.js"
import { errorMessage } from "../../data/client.js"
import { runHubImport, workspaceUsers } from "../../data/imports.js"
import { dataset as datasetQuery, fields as fieldsQuery, me, queryClient, questions as questionsQuery } from "../../data/queries.js"
import { allMetadataProperties, canManage, importBatch, vectorSettings as vectorSettingsQuery } from "../../data/settings.js"
import { Link } from "../../router.js"
import { HubImportFlow, type StartHubImport } from "./HubImport.js"
import {
  agentTarget,
  autoMap,
  Batcher,
  EXTERNAL_ID,
  fieldTarget,
  IGNORE,
  type ImportRecord,
  type Mapping,
  mappingProblems,
  metadataTarget,
  type MoreSettings,
  responseTarget,
  scoreTarget,
  suggestionTarget,
  toRecord,
  vectorTarget
} from "./mapping.js"
import { batchRejections, MAX_REASONS, Preview, type Progress, type Rejection, RowCheck } from "./parts.js"
import { formatOf, type FileFormat, readRows, sample, type SourceRow } from "./source.js"
import { EMPTY_TALLY, type RowTally, tallyRow } from "./validate.js"
import "../settings/settings.css"
import "./import.css"

/** Sends one batch; rejects with the server's typed failure. */
export type SendBatch = (records: ReadonlyArray<ImportRecord>, signal: AbortSignal) => Promise<unknown>

/** Someone a response column may answer for. */
export interface ImportUser {
  readonly id: UserId
  readonly username: string
}

/**
 * The import, given the dataset's fields, metadata properties, questions, vector settings and workspace users, and
 * how a batch is sent (the server, or a test's stand-in).
 */
export const ImportFlow = (props: {
  readonly fields: ReadonlyArray<Field>
  readonly metadata: ReadonlyArray<MetadataProperty>
  readonly questions?: ReadonlyArray<Question>
  readonly vectorSettings?: ReadonlyArray<VectorSettings>
  readonly users?: ReadonlyArray<ImportUser>
  readonly send: SendBatch
  readonly onFinished?: () => void
}) => {
  const { fields, metadata } = props
  const questions = props.questions ?? []
  const vectors = props.vectorSettings ?? []
  const users = props.users ?? []
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
  const [responseUser, setResponseUser] = useState<UserId | "">("")
  const [responseStatus, setResponseStatus] = useState<ResponseStatus>("submitted")
  const [check, setCheck] = useState<{ readonly state: "idle" | "running" | "done"; readonly tally: RowTally }>({ state: "idle", tally: EMPTY_TALLY })
  const abort = useRef<AbortController | undefined>(undefined)
  const checking = useRef<AbortController | undefined>(undefined)

  const response = responseUser === "" ? undefined : { user_id: responseUser, status: responseStatus }
  const more: MoreSettings = { questions, vectorSettings: vectors, response }
  const convert = (row: SourceRow) => ("error" in row ? { error: row.error } : toRecord(row.values, mapping, fields, metadata, more))

  /** A changed mapping or response choice makes the last check stale. */
  const stale = () => {
    checking.current?.abort()
    setCheck({ state: "idle", tally: EMPTY_TALLY })
  }

  /** Reads the whole file and checks every row, as the import would, sending nothing. */
  const checkAll = async () => {
    if (file === undefined) return
    checking.current?.abort()
    const controller = new AbortController()
    checking.current = controller
    let tally = EMPTY_TALLY
    setCheck({ state: "running", tally })
    try {
      for await (const row of readRows(file, format, controller.signal)) {
        const result = convert(row)
        tally = tallyRow(tally, row.line, "error" in result ? result.error : undefined)
        if (tally.checked % 2000 === 0) setCheck({ state: "running", tally })
      }
    } catch (error) {
      tally = tallyRow(tally, 0, `The file could not be read to its end: ${errorMessage(error)}`)
    }
    if (!controller.signal.aborted) setCheck({ state: "done", tally })
  }

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
      setMapping(autoMap(first.columns, fields, metadata, { questions, vectorSettings: vectors }))
      setCheck({ state: "idle", tally: EMPTY_TALLY })
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
        const result = convert(row)
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

  const problems = mappingProblems(mapping, fields, response)
  const groups: ReadonlyArray<{ readonly label: string; readonly targets: ReadonlyArray<{ readonly value: string; readonly label: string }> }> = [
    {
      label: "Record",
      targets: [
        ...fields.map((f) => ({ value: fieldTarget(f.name), label: `Field: ${f.title} (${f.name})` })),
        ...metadata.map((m) => ({ value: metadataTarget(m.name), label: `Metadata: ${m.title} (${m.name})` })),
        { value: EXTERNAL_ID, label: "External id" }
      ]
    },
    {
      label: "Suggestions",
      targets: questions.flatMap((q) => [
        { value: suggestionTarget(q.name), label: `Suggestion: ${q.title} (${q.name})` },
        { value: scoreTarget(q.name), label: `Suggestion score: ${q.title}` },
        { value: agentTarget(q.name), label: `Suggestion agent: ${q.title}` }
      ])
    },
    { label: "Response", targets: questions.map((q) => ({ value: responseTarget(q.name), label: `Response: ${q.title} (${q.name})` })) },
    { label: "Vectors", targets: vectors.map((v) => ({ value: vectorTarget(v.name), label: `Vector: ${v.title} (${v.dimensions} numbers)` })) }
  ]
  const mapsResponses = Object.values(mapping).some((t) => t.startsWith("response:"))
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
                            onChange={(e) => {
                              setMapping({ ...mapping, [column]: e.target.value })
                              stale()
                            }}
                          >
                            <option value={IGNORE}>Ignore</option>
                            {groups.filter((g) => g.targets.length > 0).map((g) => (
                              <optgroup key={g.label} label={g.label}>
                                {g.targets.map((t) => <option key={t.value} value={t.value}>{t.label}</option>)}
                              </optgroup>
                            ))}
                          </select>
                        </td>
                      </tr>
                    )
                  })}
                </tbody>
              </table>
            </div>
            {questions.length === 0 ? null : (
              <fieldset className="import-response" disabled={busy}>
                <legend>Response columns answer for</legend>
                <div>
                  <label htmlFor={`${inputId}-response-user`}>User</label>
                  <select
                    id={`${inputId}-response-user`}
                    value={responseUser}
                    onChange={(e) => {
                      const chosen = users.find((u) => u.id === e.target.value)
                      setResponseUser(chosen === undefined ? "" : chosen.id)
                      stale()
                    }}
                  >
                    <option value="">{mapsResponses ? "Choose a user" : "No one (no response columns)"}</option>
                    {users.map((u) => <option key={u.id} value={u.id}>{u.username}</option>)}
                  </select>
                </div>
                <div>
                  <label htmlFor={`${inputId}-response-status`}>Status</label>
                  <select
                    id={`${inputId}-response-status`}
                    value={responseStatus}
                    onChange={(e) => {
                      const chosen = ResponseStatus.literals.find((s) => s === e.target.value)
                      if (chosen !== undefined) setResponseStatus(chosen)
                      stale()
                    }}
                  >
                    {ResponseStatus.literals.map((s) => <option key={s} value={s}>{s}</option>)}
                  </select>
                </div>
              </fieldset>
            )}
            {problems.length > 0 ? <ul className="error" aria-label="Mapping problems">{problems.map((p) => <li key={p}>{p}</li>)}</ul> : null}
          </section>
          <section className="panel settings-item" aria-labelledby="import-preview-heading">
            <h2 id="import-preview-heading">3. Preview</h2>
            <Preview rows={rows} mapping={mapping} fields={fields} metadata={metadata} more={more} />
            <RowCheck
              state={check.state}
              tally={check.tally}
              disabled={busy || problems.length > 0}
              onCheck={() => void checkAll()}
            />
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

const startHubImport = (id: DatasetId): StartHubImport => (payload, onJob, signal) => runHubImport(id, payload, onJob, signal)

type Tab = "file" | "hub"
const TABS: ReadonlyArray<{ readonly tab: Tab; readonly label: string }> = [
  { tab: "file", label: "From a file" },
  { tab: "hub", label: "From the Hugging Face Hub" }
]

/** A tab list as ARIA describes it: the chosen tab is the one stop in the tab order, arrows move between them. */
const ImportTabs = (props: { readonly tab: Tab; readonly onTab: (tab: Tab) => void; readonly idPrefix: string }) => {
  const refs = useRef<Array<HTMLButtonElement | null>>([])
  const onKey = (e: KeyboardEvent, index: number) => {
    const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0
    if (step === 0) return
    e.preventDefault()
    const next = (index + step + TABS.length) % TABS.length
    const entry = TABS[next]
    if (entry === undefined) return
    props.onTab(entry.tab)
    refs.current[next]?.focus()
  }
  return (
    <div role="tablist" aria-label="Import from" className="import-tabs">
      {TABS.map((entry, i) => (
        <button
          key={entry.tab}
          ref={(el) => void (refs.current[i] = el)}
          type="button"
          role="tab"
          id={`${props.idPrefix}-tab-${entry.tab}`}
          aria-selected={props.tab === entry.tab}
          aria-controls={`${props.idPrefix}-panel-${entry.tab}`}
          tabIndex={props.tab === entry.tab ? 0 : -1}
          onClick={() => props.onTab(entry.tab)}
          onKeyDown={(e) => onKey(e, i)}
        >
          {entry.label}
        </button>
      ))}
    </div>
  )
}

export const ImportRecords = (props: { readonly datasetId: DatasetId }) => {
  const id = props.datasetId
  const tabsId = useId()
  const [tab, setTab] = useState<Tab>("file")
  const user = useQuery(me)
  const manager = canManage(user.data?.role)
  const dataset = useQuery(datasetQuery(id))
  const fields = useQuery({ ...fieldsQuery(id), enabled: manager })
  const metadata = useQuery({ ...allMetadataProperties(id), enabled: manager })
  const questions = useQuery({ ...questionsQuery(id), enabled: manager })
  const vectors = useQuery({ ...vectorSettingsQuery(id), enabled: manager })
  const workspaceId = dataset.data?.workspace_id
  const users = useQuery({ ...workspaceUsers(manager ? workspaceId : undefined) })
  const failure = dataset.error ?? fields.error ?? metadata.error ?? questions.error ?? vectors.error ?? users.error
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ["dataset", id] })
  const loaded = fields.data !== undefined && metadata.data !== undefined && questions.data !== undefined && vectors.data !== undefined
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
      {manager && dataset.data?.status === "ready" && loaded ? (
        <>
          <ImportTabs tab={tab} onTab={setTab} idPrefix={tabsId} />
          <div role="tabpanel" id={`${tabsId}-panel-${tab}`} aria-labelledby={`${tabsId}-tab-${tab}`}>
            {tab === "file"
              ? (
                <ImportFlow
                  fields={fields.data}
                  metadata={metadata.data}
                  questions={questions.data}
                  vectorSettings={vectors.data}
                  users={users.data ?? []}
                  send={(records, signal) => importBatch(id, records, signal)}
                  onFinished={refresh}
                />
              )
              : (
                <HubImportFlow
                  fields={fields.data}
                  metadata={metadata.data}
                  questions={questions.data}
                  start={startHubImport(id)}
                  errorMessage={errorMessage}
                  onFinished={refresh}
                />
              )}
          </div>
        </>
      ) : null}
      <p><Link to={`/dataset/${id}/annotation-mode`}>Open the dataset</Link> · <Link to={`/dataset/${id}/settings`}>Settings</Link></p>
    </main>
  )
}

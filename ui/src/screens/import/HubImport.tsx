/**
 * The importer's Hub tab: the rows of a Hugging Face Hub dataset (repo id, subset, split) become records by a mapping
 * of its columns to fields, metadata properties, questions' suggestions and the external id, in the server's job
 * (`POST /datasets/{id}/import`), whose progress is polled and shown until it ends. The request carries no token:
 * the job reads private datasets with the server's own `HF_TOKEN`, as the endpoint is defined.
 */
import { useEffect, useId, useRef, useState } from "react"
import type { Field } from "../../../../src/domain/Field.js"
import type { DatasetHubImport } from "../../../../src/domain/HubTransfer.js"
import type { Job } from "../../../../src/domain/Job.js"
import type { MetadataProperty } from "../../../../src/domain/MetadataProperty.js"
import type { Question } from "../../../../src/domain/Question.js"
import { type Columns, hubRequest } from "./hubRequest.js"

/** Starts the job and reports each state of it until it ends (the server's, or a test's stand-in). */
export type StartHubImport = (payload: DatasetHubImport, onJob: (job: Job) => void, signal: AbortSignal) => Promise<Job>

const JOB_WORDS: Readonly<Record<Job["status"], string>> = {
  queued: "Waiting to start…",
  started: "Importing…",
  deferred: "Waiting to start…",
  scheduled: "Waiting to try again…",
  finished: "Finished.",
  stopped: "Stopped.",
  canceled: "Canceled.",
  failed: "Failed."
}

export const HubImportFlow = (props: {
  readonly fields: ReadonlyArray<Field>
  readonly metadata: ReadonlyArray<MetadataProperty>
  readonly questions: ReadonlyArray<Question>
  readonly start: StartHubImport
  readonly errorMessage: (error: unknown) => string
  readonly onFinished?: () => void
}) => {
  const id = useId()
  const [name, setName] = useState("")
  const [subset, setSubset] = useState("default")
  const [split, setSplit] = useState("train")
  const [columns, setColumns] = useState<Columns>({})
  const [externalId, setExternalId] = useState("")
  const [job, setJob] = useState<Job | undefined>(undefined)
  const [running, setRunning] = useState(false)
  const [failure, setFailure] = useState<string | undefined>(undefined)
  const [tried, setTried] = useState(false)
  const abort = useRef<AbortController | undefined>(undefined)
  useEffect(() => () => abort.current?.abort(), [])

  const built = hubRequest({ name, subset, split, columns, externalId }, props.fields)
  const problems = "problems" in built ? built.problems : []

  const run = async () => {
    setTried(true)
    if (!("request" in built)) return
    const controller = new AbortController()
    abort.current = controller
    setRunning(true)
    setFailure(undefined)
    setJob(undefined)
    try {
      await props.start(built.request, (state) => {
        if (!controller.signal.aborted) setJob(state)
      }, controller.signal)
      props.onFinished?.()
    } catch (error) {
      if (!controller.signal.aborted) setFailure(props.errorMessage(error))
    } finally {
      if (!controller.signal.aborted) setRunning(false)
    }
  }

  const targets = [
    ...props.fields.map((f) => ({ key: `field:${f.name}`, label: `Field: ${f.title}${f.required ? " (required)" : ""}` })),
    ...props.metadata.map((m) => ({ key: `metadata:${m.name}`, label: `Metadata: ${m.title}` })),
    ...props.questions.map((q) => ({ key: `suggestion:${q.name}`, label: `Suggestion for: ${q.title}` }))
  ]
  const progress = job?.progress
  const failed = job?.status === "failed"
  const percent = progress?.total == null || progress.total === 0 ? undefined : Math.round((progress.done / progress.total) * 100)

  return (
    <div className="import-flow settings-list">
      <section className="panel settings-item" aria-labelledby={`${id}-source`}>
        <h2 id={`${id}-source`}>1. The Hub dataset</h2>
        <div className="hub-source">
          <label>
            Repo id
            <input value={name} placeholder="owner/name" disabled={running} onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            Subset
            <input value={subset} disabled={running} onChange={(e) => setSubset(e.target.value)} />
          </label>
          <label>
            Split
            <input value={split} disabled={running} onChange={(e) => setSplit(e.target.value)} />
          </label>
        </div>
        <p className="muted">
          The server downloads the split's Parquet files. A private or gated dataset is read with the server's own Hub
          token (its <code>HF_TOKEN</code>): no token is sent from here.
        </p>
      </section>
      <section className="panel settings-item" aria-labelledby={`${id}-map`}>
        <h2 id={`${id}-map`}>2. Map the columns</h2>
        <p className="muted">Type the name of the Hub dataset's column for each place it goes; leave the others empty.</p>
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Hub column mapping">
          <table className="import-mapping">
            <thead>
              <tr><th scope="col">Goes to</th><th scope="col">Column of the Hub dataset</th></tr>
            </thead>
            <tbody>
              {targets.map((target) => (
                <tr key={target.key}>
                  <th scope="row"><label htmlFor={`${id}-${target.key}`}>{target.label}</label></th>
                  <td>
                    <input
                      id={`${id}-${target.key}`}
                      value={columns[target.key] ?? ""}
                      disabled={running}
                      onChange={(e) => setColumns({ ...columns, [target.key]: e.target.value })}
                    />
                  </td>
                </tr>
              ))}
              <tr>
                <th scope="row"><label htmlFor={`${id}-external-id`}>External id (rows are updated by it)</label></th>
                <td><input id={`${id}-external-id`} value={externalId} disabled={running} onChange={(e) => setExternalId(e.target.value)} /></td>
              </tr>
            </tbody>
          </table>
        </div>
        {tried && problems.length > 0
          ? <ul className="error" aria-label="Hub import problems">{problems.map((p) => <li key={p}>{p}</li>)}</ul>
          : null}
      </section>
      <section className="panel settings-item import-progress" aria-labelledby={`${id}-run`}>
        <h2 id={`${id}-run`}>3. Import</h2>
        <div className="settings-save">
          <button type="button" className="primary" disabled={running} onClick={() => void run()}>Import from the Hub</button>
        </div>
        {failure === undefined ? null : <p role="alert" className="error">{failure}</p>}
        {job === undefined ? null : (
          <>
            <progress max={100} value={percent ?? (job.status === "finished" ? 100 : 0)} aria-label="Hub import progress" />
            <p role="status" className="import-status">
              {JOB_WORDS[job.status]}{" "}
              {progress === undefined || failed ? null : (
                <>
                  {progress.done} of {progress.total ?? "?"} rows done: {Math.max(0, progress.done - progress.failed)} imported, {progress.failed} rejected.
                </>
              )}
            </p>
            {progress !== undefined && progress.errors.length > 0 ? (
              <div className="import-report">
                {/* A job that fails (no such repo, split or file; a refused token) lists its reason with the rows' ones. */}
                <h3>{failed ? "Why it failed" : "Rejected"}</h3>
                <ul>{progress.errors.map((e, i) => <li key={i}>{e.id === "" ? "" : `${e.id}: `}{e.detail}</li>)}</ul>
              </div>
            ) : null}
          </>
        )}
      </section>
    </div>
  )
}

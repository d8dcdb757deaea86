/**
 * "Export" on a dataset: a dialog to download the records as a file (the formats of `POST /api/gloss/…/exports`: four
 * with every record, and the training formats made of final answers, each from a question of the type it needs; all
 * records, or those of the current search, filters and queue), or to push the dataset to the Hugging Face Hub
 * (`POST /datasets/{id}/export`). Either starts a job whose progress shows as a bar; a finished file export
 * downloads at once (and can be downloaded again from the dialog).
 */
import { useQuery } from "@tanstack/react-query"
import { type FormEvent, useEffect, useId, useRef, useState } from "react"
import type { ExportFormat } from "../../../../src/domain/Export.js"
import type { DatasetId } from "../../../../src/domain/Ids.js"
import type { Job } from "../../../../src/domain/Job.js"
import type { SearchRecordsQuery } from "../../../../src/domain/Search.js"
import { errorMessage } from "../../data/client.js"
import { fields as fieldsQuery, questions as questionsQuery } from "../../data/queries.js"
import { downloadExport, follow, FORMATS, startFileExport, startHubPush, TRAINING_FORMATS } from "./exportJobs.js"
import { questionsFor, unavailableReason } from "./trainingQuestions.js"
import "./export.css"

interface Props {
  readonly datasetId: DatasetId
  /** The annotation view's search body: its queue, text, filters and sort. */
  readonly query: SearchRecordsQuery
}

type Run =
  | { readonly kind: "idle" }
  | { readonly kind: "running"; readonly what: "file" | "hub"; readonly job: Job | undefined }
  | { readonly kind: "done"; readonly what: "file" | "hub"; readonly job: Job }
  | { readonly kind: "failed"; readonly message: string }

const JobProgress = (props: { readonly job: Job | undefined; readonly label: string }) => {
  const progress = props.job?.progress
  const total = progress?.total ?? null
  return (
    <div className="export-progress">
      <progress
        aria-label={props.label}
        {...(total === null || total === 0 ? {} : { max: total, value: progress?.done ?? 0 })}
      />
      <span aria-live="polite">
        {total === null ? "Starting…" : `${progress?.done ?? 0} of ${total} records`}
      </span>
    </div>
  )
}

/** Why a training export left records out (those without the final answer it is made of), in the job's words. */
const leftOut = (job: Job) => {
  const failed = job.progress?.failed ?? 0
  const detail = job.progress?.errors[0]?.detail
  return detail === undefined ? `${failed} left out.` : `${detail.replace(/\.$/, "")}.`
}

export const ExportButton = (props: Props) => {
  const { datasetId, query } = props
  const id = useId()
  const dialog = useRef<HTMLDialogElement>(null)
  const [format, setFormat] = useState<ExportFormat>("jsonl")
  const [scope, setScope] = useState<"all" | "view">("all")
  const [question, setQuestion] = useState("")
  const questions = useQuery(questionsQuery(datasetId)).data ?? []
  const fields = useQuery(fieldsQuery(datasetId)).data ?? []
  const choices = questionsFor(format, questions, fields)
  // The chosen question while it fits the format; else the first that does (final answers may take none).
  const chosenQuestion = choices === undefined ? null
    : choices.some((c) => c.name === question) ? question
    : format === "training-jsonl" ? null
    : choices[0]?.name ?? null
  const [repo, setRepo] = useState("")
  const [isPrivate, setPrivate] = useState(true)
  const [token, setToken] = useState("")
  const [run, setRun] = useState<Run>({ kind: "idle" })
  const stop = useRef<AbortController | undefined>(undefined)
  useEffect(() => () => stop.current?.abort(), [])

  const running = run.kind === "running"
  const start = async (what: "file" | "hub", begin: () => Promise<Job>) => {
    stop.current?.abort()
    const controller = new AbortController()
    stop.current = controller
    setRun({ kind: "running", what, job: undefined })
    try {
      const job = await follow(await begin(), (job) => setRun({ kind: "running", what, job }), controller.signal)
      if (controller.signal.aborted) return
      if (job.status !== "finished") {
        const detail = job.progress?.errors[0]?.detail
        setRun({ kind: "failed", message: `The ${what === "file" ? "export" : "push"} ${job.status}${detail === undefined ? "." : `: ${detail}`}` })
        return
      }
      setRun({ kind: "done", what, job })
      if (what === "file") await downloadExport(job.id)
    } catch (error) {
      if (!controller.signal.aborted) setRun({ kind: "failed", message: error instanceof Error && !("_tag" in error) ? error.message : errorMessage(error) })
    }
  }
  const exportFile = (event: FormEvent) => {
    event.preventDefault()
    void start("file", () => startFileExport(datasetId, format, scope === "view" ? query : null, chosenQuestion))
  }
  const pushToHub = (event: FormEvent) => {
    event.preventDefault()
    void start("hub", () => startHubPush(datasetId, { name: repo.trim(), private: isPrivate, token }))
  }

  return (
    <>
      <button
        type="button"
        className="secondary"
        onClick={() => {
          if (!running) setRun({ kind: "idle" })
          dialog.current?.showModal()
        }}
      >
        Export
      </button>
      <dialog ref={dialog} className="export-dialog" aria-labelledby={`${id}-title`}>
        <div className="export-head">
          <h2 id={`${id}-title`}>Export the dataset</h2>
          <button type="button" className="secondary" onClick={() => dialog.current?.close()}>Close</button>
        </div>
        <form onSubmit={exportFile} aria-labelledby={`${id}-file`}>
          <h3 id={`${id}-file`}>Download a file</h3>
          <fieldset>
            <legend>Format</legend>
            {FORMATS.map((option) => (
              <label key={option.format} className="export-choice">
                <input
                  type="radio"
                  name={`${id}-format`}
                  value={option.format}
                  checked={format === option.format}
                  onChange={() => setFormat(option.format)}
                />
                <span>{option.label} <span className="muted">— {option.hint}</span></span>
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend>For training: final answers only</legend>
            {TRAINING_FORMATS.map((option) => {
              const reason = unavailableReason(option.format, questions, fields)
              return (
                <label key={option.format} className="export-choice">
                  <input
                    type="radio"
                    name={`${id}-format`}
                    value={option.format}
                    checked={format === option.format}
                    disabled={reason !== undefined}
                    aria-describedby={reason === undefined ? undefined : `${id}-${option.format}-reason`}
                    onChange={() => setFormat(option.format)}
                  />
                  <span>
                    {option.label} <span className="muted">— {option.hint}</span>
                    {reason === undefined ? null : (
                      <span id={`${id}-${option.format}-reason`} className="export-reason">Not available: {reason}.</span>
                    )}
                  </span>
                </label>
              )
            })}
          </fieldset>
          {choices === undefined ? null : (
            <div className="export-question">
              <label htmlFor={`${id}-question`}>Question</label>
              <select
                id={`${id}-question`}
                value={chosenQuestion ?? ""}
                onChange={(e) => setQuestion(e.target.value)}
              >
                {format === "training-jsonl" ? <option value="">Every settled record</option> : null}
                {choices.map((c) => <option key={c.name} value={c.name}>{c.title}</option>)}
              </select>
              {format === "training-jsonl"
                ? <span className="muted">With a question, the records whose question is settled.</span>
                : null}
            </div>
          )}
          <fieldset>
            <legend>Records</legend>
            <label className="export-choice">
              <input type="radio" name={`${id}-scope`} checked={scope === "all"} onChange={() => setScope("all")} />
              <span>All records</span>
            </label>
            <label className="export-choice">
              <input type="radio" name={`${id}-scope`} checked={scope === "view"} onChange={() => setScope("view")} />
              <span>The records matching the current queue, search and filters</span>
            </label>
          </fieldset>
          <button type="submit" className="primary" disabled={running}>Export and download</button>
        </form>
        <form onSubmit={pushToHub} aria-labelledby={`${id}-hub`}>
          <h3 id={`${id}-hub`}>Push to the Hugging Face Hub</h3>
          <label htmlFor={`${id}-repo`}>Dataset repository</label>
          <input
            id={`${id}-repo`}
            required
            placeholder="owner/name"
            pattern="[A-Za-z0-9][\w.\-]{0,95}/[A-Za-z0-9][\w.\-]{0,95}"
            value={repo}
            autoComplete="off"
            onChange={(e) => setRepo(e.target.value)}
          />
          <label className="export-choice">
            <input type="checkbox" checked={isPrivate} onChange={(e) => setPrivate(e.target.checked)} />
            <span>Private repository</span>
          </label>
          <label htmlFor={`${id}-token`}>Access token with write access</label>
          <input
            id={`${id}-token`}
            type="password"
            required
            autoComplete="off"
            value={token}
            onChange={(e) => setToken(e.target.value)}
          />
          <button type="submit" className="secondary" disabled={running}>Push to the Hub</button>
        </form>
        <div className="export-status">
          {run.kind === "running"
            ? <JobProgress job={run.job} label={run.what === "file" ? "Export progress" : "Push progress"} />
            : run.kind === "done" && run.what === "file"
            ? (
              <p role="status">
                Exported {(run.job.progress?.done ?? 0) - (run.job.progress?.failed ?? 0)} records.{" "}
                {(run.job.progress?.failed ?? 0) === 0 ? null : <>{leftOut(run.job)}{" "}</>}
                <button type="button" className="link-button" onClick={() => void downloadExport(run.job.id).catch((error: unknown) =>
                  setRun({ kind: "failed", message: error instanceof Error ? error.message : errorMessage(error) }))}>
                  Download again
                </button>
              </p>
            )
            : run.kind === "done"
            ? <p role="status">Pushed {run.job.progress?.done ?? 0} records to {repo}.</p>
            : run.kind === "failed"
            ? <p role="alert" className="error">{run.message}</p>
            : null}
        </div>
      </dialog>
    </>
  )
}

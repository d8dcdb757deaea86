/**
 * The export dialog's calls: a file export (`POST /api/gloss/datasets/{id}/exports`) or a push to the Hugging Face Hub
 * (`POST /api/v1/datasets/{id}/export`), both jobs followed with `GET /api/v1/jobs/{id}` until they end, and the
 * finished file fetched with the session's token and handed to the browser as a download.
 */
import type { ExportFormat } from "../../../../src/domain/Export.js"
import type { DatasetId } from "../../../../src/domain/Ids.js"
import type { Job } from "../../../../src/domain/Job.js"
import type { SearchRecordsQuery } from "../../../../src/domain/Search.js"
import { appBase, call } from "../../data/client.js"
import { session } from "../../data/session.js"

type FormatOption = { readonly format: ExportFormat; readonly label: string; readonly hint: string }

/** Every record, with its responses and final answers. */
export const FORMATS: ReadonlyArray<FormatOption> = [
  { format: "argilla-disk", label: "Argilla dataset (zip)", hint: "Argilla's Dataset.from_disk reads it, after unzipping" },
  { format: "jsonl", label: "JSON Lines", hint: "one record per line, as the API returns it" },
  { format: "csv", label: "CSV", hint: "one row per record, for spreadsheets" },
  { format: "parquet", label: "Parquet", hint: "the columns of Argilla's Hub export" }
]

/** The settled data only: records with final answers (docs/how-to/export-for-training.md). */
export const TRAINING_FORMATS: ReadonlyArray<FormatOption> = [
  { format: "training-jsonl", label: "Final answers (JSON Lines)", hint: "one line per settled record: fields, metadata and final answers" },
  { format: "conll", label: "CoNLL", hint: "a span question's final spans as IOB tags, one token per line" },
  { format: "spacy", label: "spaCy spans", hint: "a span question's final spans with character offsets, one record per line" },
  { format: "dpo", label: "DPO pairs", hint: "prompt, chosen and rejected, from a ranking's final order" }
]

const POLL_MS = 500
const ENDED: ReadonlyArray<Job["status"]> = ["finished", "failed", "stopped", "canceled"]
export const hasEnded = (job: Job) => ENDED.includes(job.status)

/** Follows a job until it ends, handing each state to `onJob`; `signal` stops following (the job goes on). */
export const follow = async (first: Job, onJob: (job: Job) => void, signal: AbortSignal): Promise<Job> => {
  let job = first
  onJob(job)
  while (!hasEnded(job) && !signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    const id = job.id
    job = await call((c) => c.jobs.get({ path: { id } }), signal)
    onJob(job)
  }
  return job
}

/** `question`: the one a training format is made from (null: none, or every settled question for final answers). */
export const startFileExport = (
  datasetId: DatasetId,
  format: ExportFormat,
  query: SearchRecordsQuery | null,
  question: string | null = null
) =>
  call((c) =>
    c.exports.start({
      path: { id: datasetId },
      payload: { format, ...(query === null ? {} : { query }), ...(question === null ? {} : { question }) }
    })
  )

export const startHubPush = (datasetId: DatasetId, push: { readonly name: string; readonly private: boolean; readonly token: string }) =>
  call((c) => c.datasets.exportToHub({ path: { id: datasetId }, payload: push }))

/** `filename="…"` of a `content-disposition` header. */
const fileNameOf = (header: string | null, fallback: string) => /filename="([^"]+)"/.exec(header ?? "")?.[1] ?? fallback

/**
 * Fetches the finished export and saves it through a temporary link: the API takes the session's token in a header,
 * which a plain link cannot send.
 */
export const downloadExport = async (jobId: string) => {
  const token = session.token()
  const response = await fetch(`${appBase()}/api/gloss/exports/${encodeURIComponent(jobId)}/file`, {
    headers: token === null ? {} : { authorization: `Bearer ${token}` }
  })
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null)
    const detail = typeof body === "object" && body !== null && "detail" in body && typeof body.detail === "string"
      ? body.detail
      : `The download failed (${response.status}).`
    throw new Error(detail)
  }
  const blob = await response.blob()
  const url = URL.createObjectURL(blob)
  const link = document.createElement("a")
  link.href = url
  link.download = fileNameOf(response.headers.get("content-disposition"), "export")
  document.body.append(link)
  link.click()
  link.remove()
  // After the click has handed the file to the browser.
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}

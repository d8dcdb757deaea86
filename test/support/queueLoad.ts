/**
 * Annotators drawing from their queues at once (`POST /api/gloss/me/datasets/{id}/queue`, reserving each page) and
 * submitting what they drew, until every queue is empty; over plain HTTP, so that one test server in the test
 * process and several `gloss server` processes on one database are driven alike (each annotator's calls go round
 * the servers given). Used by test/http/assignment-concurrency.test.ts and test/process/assignment-servers.test.ts.
 */
import * as crypto from "node:crypto"

type Json = Record<string, any>

export interface Annotator {
  readonly id: string
  readonly key: string
}

export interface LoadDataset {
  readonly id: string
  readonly records: ReadonlyArray<string>
  readonly annotators: ReadonlyArray<Annotator>
}

const call = async (base: string, key: string, method: string, path: string, body?: unknown): Promise<Json> => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { "content-type": "application/json", "x-gloss-api-key": key },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`)
  return text === "" ? {} : JSON.parse(text) as Json
}

const unique = (prefix: string) => `${prefix}-${crypto.randomBytes(4).toString("hex")}`

/**
 * A published dataset of `records` records with a label question, `min_submitted` answers wanted per record, and
 * `annotators` new annotators, members of its new workspace.
 */
export const seedLoadDataset = async (
  base: string,
  ownerKey: string,
  options: { readonly records: number; readonly minSubmitted: number; readonly annotators: number }
): Promise<LoadDataset> => {
  const owner = (method: string, path: string, body?: unknown) => call(base, ownerKey, method, path, body)
  const workspace = await owner("POST", "/api/v1/workspaces", { name: unique("ws") })
  const dataset = await owner("POST", "/api/v1/datasets", { name: unique("ds"), workspace_id: workspace.id })
  const at = `/api/v1/datasets/${dataset.id}`
  await owner("POST", `${at}/fields`, { name: "text", title: "Text", settings: { type: "text" } })
  await owner("POST", `${at}/questions`, {
    name: "label",
    title: "Label",
    required: true,
    settings: { type: "label_selection", options: [{ value: "a", text: "A" }, { value: "b", text: "B" }] }
  })
  await owner("PATCH", at, { distribution: { strategy: "overlap", min_submitted: options.minSubmitted } })
  await owner("PUT", `${at}/publish`)
  const created = await owner("POST", `${at}/records/bulk`, {
    items: Array.from({ length: options.records }, (_, i) => ({ external_id: `r${i}`, fields: { text: `record ${i}` } }))
  })
  const annotators: Array<Annotator> = []
  for (let i = 0; i < options.annotators; i++) {
    const user = await owner("POST", "/api/v1/users", {
      first_name: "Annotator",
      username: unique("annotator"),
      password: "password-1234",
      role: "annotator"
    })
    await owner("POST", `/api/v1/workspaces/${workspace.id}/users`, { user_id: user.id })
    annotators.push({ id: user.id, key: user.api_key })
  }
  return { id: dataset.id, records: (created.items as Array<Json>).map((r) => r.id as string), annotators }
}

export interface LoadOutcome {
  /** Per annotator, every record a page handed them, in order (with repeats if a page handed one out again). */
  readonly drawn: ReadonlyArray<ReadonlyArray<string>>
  /** Per annotator, the records they submitted. */
  readonly submitted: ReadonlyArray<ReadonlyArray<string>>
  /** Pages read in all. */
  readonly pages: number
}

/**
 * Every annotator at once: reads the first `pageSize` records of their queue (reserving them), submits each, and
 * reads again, until their queue is empty; call `n` of an annotator goes to `bases[(annotator + n) % bases.length]`.
 * Gives up after `maxPages` pages per annotator (a queue that never empties is a failure, not a hang).
 */
export const drawUntilEmpty = async (
  bases: ReadonlyArray<string>,
  dataset: LoadDataset,
  options: { readonly pageSize: number; readonly maxPages?: number }
): Promise<LoadOutcome> => {
  let pages = 0
  const maxPages = options.maxPages ?? dataset.records.length + 10
  const runs = dataset.annotators.map(async (annotator, a) => {
    let n = a
    const next = () => bases[n++ % bases.length]!
    const drawn: Array<string> = []
    const submitted: Array<string> = []
    for (let page = 0; page < maxPages; page++) {
      const got = await call(next(), annotator.key, "POST", `/api/gloss/me/datasets/${dataset.id}/queue?limit=${options.pageSize}`, {
        reserve: true
      })
      pages++
      const ids = (got.items as Array<Json>).map((item) => item.record.id as string)
      if (ids.length === 0) return { drawn, submitted }
      drawn.push(...ids)
      await Promise.all(ids.map(async (id) => {
        await call(next(), annotator.key, "POST", `/api/v1/records/${id}/responses`, {
          status: "submitted",
          values: { label: { value: a % 2 === 0 ? "a" : "b" } }
        })
        submitted.push(id)
      }))
    }
    throw new Error(`annotator ${a}'s queue did not empty in ${maxPages} pages`)
  })
  const outcomes = await Promise.all(runs)
  return { drawn: outcomes.map((o) => o.drawn), submitted: outcomes.map((o) => o.submitted), pages }
}

/** Per record of the dataset, its submitted responses' authors (read as the owner). */
export const submittedBy = async (base: string, ownerKey: string, dataset: LoadDataset) => {
  const listed = await call(base, ownerKey, "GET", `/api/v1/datasets/${dataset.id}/records?limit=1000&include=responses`)
  return new Map((listed.items as Array<Json>).map((record) => [
    record.id as string,
    (record.responses as Array<Json>).filter((r) => r.status === "submitted").map((r) => r.user_id as string)
  ]))
}

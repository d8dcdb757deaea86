/**
 * The dataset of the `small` suite and the searches it times, made through Argilla's own API calls so that the same
 * code loads and searches a Gloss server and an Argilla server: two Zipf texts (a ~60-character `title`, a
 * ~300-character `body`), an integer `year` spread over 1900–2025, and one vector of a few dimensions per record.
 * Requests carry the key under Argilla's header, which Gloss reads too.
 */
import { QUERY_WORDS, zipfText } from "./corpus.js"
import { api } from "./http.js"
import { vector } from "./latency.js"

export const ARGILLA_KEY_HEADER = "X-Argilla-Api-Key"
export const VECTOR_NAME = "emb"
export const FIRST_YEAR = 1900
export const LAST_YEAR = 2025
const YEARS = LAST_YEAR - FIRST_YEAR + 1
/** Ranges of 10, 30 and 60 years: about 8 %, 24 % and 48 % of the records. */
const RANGE_WIDTHS = [10, 30, 60]

/** Record `i`; its vector of `dimensions` when the dataset has the vector setting (undefined: it has none). */
export const smallRecord = (i: number, dimensions: number | undefined) => ({
  external_id: `r${i}`,
  fields: { title: zipfText(i, 60), body: zipfText(i + 7_919, 300) },
  // 7 919 is prime to 126: consecutive records get years all over the span, every year as often.
  metadata: { year: FIRST_YEAR + ((i * 7_919) % YEARS) },
  ...(dimensions === undefined ? {} : { vectors: { [VECTOR_NAME]: vector(i, dimensions) } })
})

/** The bulk bodies of `records` records, 500 a body (Argilla's most for one request). */
export const smallBulkBodies = (records: number, dimensions: number | undefined): Array<string> => {
  const bodies: Array<string> = []
  for (let from = 0; from < records; from += 500) {
    const items = Array.from({ length: Math.min(500, records - from) }, (_, k) => smallRecord(from + k, dimensions))
    bodies.push(JSON.stringify({ items }))
  }
  return bodies
}

/** Query `i`'s word: the five frequency bands of bench/lib/corpus.ts in turn. */
const wordOf = (i: number) => QUERY_WORDS[i % QUERY_WORDS.length] ?? "word"

/** Query `i`'s year range: a width in turn (prime to the five words, so every word meets every width), a start spread over the span. */
export const yearRange = (i: number) => {
  const width = RANGE_WIDTHS[i % RANGE_WIDTHS.length] ?? 30
  const ge = FIRST_YEAR + ((i * 37) % (YEARS - width + 1))
  return { ge, le: ge + width - 1 }
}

/** Text + `year` range, as Argilla's search body has it. */
export const textAndRangeBody = (i: number) => ({
  query: { text: { q: wordOf(i) } },
  filters: { and: [{ type: "range", scope: { entity: "metadata", metadata_property: "year" }, ...yearRange(i) }] }
})

export const textOnlyBody = (i: number) => ({ query: { text: { q: wordOf(i) } } })

/** A query vector that is no record's (`records + i` is past the last record's seed). */
export const vectorBody = (i: number, records: number, dimensions: number) => ({
  query: { vector: { name: VECTOR_NAME, value: vector(records + i, dimensions) } }
})

/** The JSON calls of one server with the owner's key under Argilla's header. */
export const argillaApi = (baseUrl: string, apiKey: string) => api(baseUrl, apiKey, ARGILLA_KEY_HEADER)

/**
 * Creates the dataset (the two fields, a label question, which publishing needs, `year`, and the vector setting when
 * `dimensions` is given) in the first workspace of the key's user, made when there is none; answers its id. It is
 * left unpublished: publishing is where an Argilla on OpenSearch refuses the vector setting.
 */
export const createSmallDataset = async (call: ReturnType<typeof api>, name: string, dimensions: number | undefined) => {
  const workspaces = (await call("GET", "/me/workspaces")) as { items: Array<{ id: string }> }
  const workspaceId = workspaces.items[0]?.id ?? ((await call("POST", "/workspaces", { name: "bench" })) as { id: string }).id
  const dataset = (await call("POST", "/datasets", { name, workspace_id: workspaceId })) as { id: string }
  const post = (kind: string, body: unknown) => call("POST", `/datasets/${dataset.id}/${kind}`, body)
  await post("fields", { name: "title", title: "Title", required: true, settings: { type: "text" } })
  await post("fields", { name: "body", title: "Body", required: false, settings: { type: "text" } })
  await post("questions", {
    name: "ok",
    title: "OK",
    required: true,
    settings: { type: "label_selection", options: [{ value: "y", text: "Y" }, { value: "n", text: "N" }] }
  })
  await post("metadata-properties", { name: "year", title: "Year", settings: { type: "integer", min: FIRST_YEAR, max: LAST_YEAR } })
  if (dimensions !== undefined) await post("vectors-settings", { name: VECTOR_NAME, title: "Embedding", dimensions })
  return dataset.id
}

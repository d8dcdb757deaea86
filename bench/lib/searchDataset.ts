/**
 * The dataset the search benchmarks search: two ~300-character Zipf texts, three metadata values and one vector per
 * record, and the query they time (a text query with two metadata filters).
 */
import { api, fetchRetrying } from "./http.js"
import { BENCH_API_KEY } from "./processes.js"
import { QUERY_WORDS, zipfText } from "./corpus.js"

export const DIMENSIONS = 384
const SOURCES = ["web", "book", "forum"]

/** Text + 2 metadata filters: `source` in two of three values, `stars` in 2..4 (together a third of the records). */
export const textBody = (i: number) => ({
  query: { text: { q: QUERY_WORDS[i % QUERY_WORDS.length] } },
  filters: {
    and: [
      { type: "terms", scope: { entity: "metadata", metadata_property: "source" }, values: ["web", "forum"] },
      { type: "range", scope: { entity: "metadata", metadata_property: "stars" }, ge: 2, le: 4 }
    ]
  }
})

/** Record `i` of the corpus, its vector made by `vectorOf`. */
export const searchRecord = (i: number, vectorOf: (seed: number, dimensions: number) => Array<number>) => ({
  external_id: `r${i}`,
  fields: { title: zipfText(i, 300), body: zipfText(i + 7_919, 300) },
  metadata: { source: SOURCES[i % 3], stars: i % 6, score: (i % 1000) / 1000 },
  vectors: { emb: vectorOf(i, DIMENSIONS) }
})

export interface SearchDataset {
  readonly id: string
  /** Metadata property ids by name. */
  readonly properties: Record<string, string>
}

/** Creates and publishes the dataset (fields, a question, `source`/`stars`/`score` metadata, the `emb` vector). */
export const createSearchDataset = async (baseUrl: string, name: string): Promise<SearchDataset> => {
  const call = api(baseUrl, BENCH_API_KEY)
  const workspaces = await call("GET", "/me/workspaces") as { items: Array<{ id: string }> }
  const workspaceId = workspaces.items[0]?.id ?? (await call("POST", "/workspaces", { name: "bench" }) as { id: string }).id
  const dataset = await call("POST", "/datasets", { name, workspace_id: workspaceId }) as { id: string }
  const post = (kind: string, body: unknown) => call("POST", `/datasets/${dataset.id}/${kind}`, body) as Promise<{ id: string }>
  await post("fields", { name: "title", title: "Title", required: true, settings: { type: "text" } })
  await post("fields", { name: "body", title: "Body", settings: { type: "text" } })
  await post("questions", { name: "ok", title: "OK", required: true, settings: { type: "label_selection", options: [{ value: "y", text: "Y" }, { value: "n", text: "N" }] } })
  const properties: Record<string, string> = {
    source: (await post("metadata-properties", { name: "source", title: "Source", settings: { type: "terms" } })).id,
    stars: (await post("metadata-properties", { name: "stars", title: "Stars", settings: { type: "integer", min: 0, max: 5 } })).id,
    score: (await post("metadata-properties", { name: "score", title: "Score", settings: { type: "float" } })).id
  }
  await post("vectors-settings", { name: "emb", title: "Embedding", dimensions: DIMENSIONS })
  await call("PUT", `/datasets/${dataset.id}/publish`)
  return { id: dataset.id, properties }
}

/**
 * Sends bulk bodies `senders` at a time; answers the seconds it took. `auth` is the API key's header and value (an
 * Argilla server's key under its own header name).
 */
export const sendBulk = async (
  baseUrl: string,
  datasetId: string,
  bodies: ReadonlyArray<string>,
  senders = 4,
  auth: Readonly<Record<string, string>> = { "x-gloss-api-key": BENCH_API_KEY }
) => {
  const url = `${baseUrl}/api/v1/datasets/${datasetId}/records/bulk`
  const headers = { "content-type": "application/json", ...auth }
  let next = 0
  const started = performance.now()
  await Promise.all(Array.from({ length: senders }, async () => {
    for (let body = bodies[next++]; body !== undefined; body = bodies[next++]) {
      const response = await fetchRetrying(url, { method: "PUT", headers, body })
      const text = await response.text()
      if (!response.ok) throw new Error(`bulk upsert answered ${response.status}: ${text.slice(0, 300)}`)
    }
  }))
  return (performance.now() - started) / 1000
}

/** Small JSON helpers for driving a Gloss server from a benchmark (plain fetch: the thing measured is the server). */

/**
 * `fetch`, sent again (up to twice) when the connection fails before an answer. A benchmark that holds its event
 * loop for a while (building request bodies, computing exact answers) comes back to keep-alive connections the
 * server has closed meanwhile, and the first write on one fails (EPIPE) before the client has noticed the close.
 * Only for idempotent requests: searches, and bulk upserts by external id.
 */
export const fetchRetrying = async (url: string, init: RequestInit, attempt = 1): Promise<Response> => {
  try {
    return await fetch(url, init)
  } catch (error) {
    if (attempt >= 3) throw error
    return fetchRetrying(url, init, attempt + 1)
  }
}
/** JSON calls under `/api/v1`; `header` names the API key's header (an Argilla server knows only its own). */
export const api = (baseUrl: string, apiKey: string, header = "x-gloss-api-key") => {
  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: { "content-type": "application/json", [header]: apiKey },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status}: ${text.slice(0, 500)}`)
    return text === "" ? null : JSON.parse(text)
  }
  return call
}

const WORDS = (
  "annotation label dataset record review quality model suggestion response field question metric span token " +
  "sentence paragraph reviewer product service delivery price support screen battery camera sound comfort value " +
  "excellent terrible average great poor quick slow friendly helpful broken perfect"
).split(" ")

/** Deterministic pseudo-random text of about `length` characters. */
export const text = (seed: number, length: number) => {
  let state = seed * 2654435761 % 4294967296
  const words: Array<string> = []
  let size = 0
  while (size < length) {
    state = (state * 1664525 + 1013904223) % 4294967296
    const word = WORDS[state % WORDS.length] ?? "word"
    words.push(word)
    size += word.length + 1
  }
  return words.join(" ")
}

/** Creates and publishes the benchmark dataset: two text fields, one label question, three metadata properties. */
export const benchDataset = async (call: ReturnType<typeof api>, name: string) => {
  const workspaces = await call("GET", "/me/workspaces") as { items: Array<{ id: string }> }
  const workspaceId = workspaces.items[0]?.id ?? (await call("POST", "/workspaces", { name: "bench" }) as { id: string }).id
  const dataset = await call("POST", "/datasets", { name, workspace_id: workspaceId }) as { id: string }
  const post = (kind: string, body: unknown) => call("POST", `/datasets/${dataset.id}/${kind}`, body)
  await post("fields", { name: "title", title: "Title", required: true, settings: { type: "text" } })
  await post("fields", { name: "body", title: "Body", settings: { type: "text" } })
  await post("questions", {
    name: "sentiment",
    title: "Sentiment",
    required: true,
    settings: { type: "label_selection", options: [{ value: "pos", text: "Positive" }, { value: "neg", text: "Negative" }] }
  })
  await post("metadata-properties", { name: "source", title: "Source", settings: { type: "terms" } })
  await post("metadata-properties", { name: "stars", title: "Stars", settings: { type: "integer", min: 0, max: 5 } })
  await post("metadata-properties", { name: "score", title: "Score", settings: { type: "float" } })
  await call("PUT", `/datasets/${dataset.id}/publish`)
  return dataset.id
}

/** The i-th benchmark record: two ~300-character texts and three metadata values. */
export const benchRecord = (i: number) => ({
  external_id: `rec-${i}`,
  fields: { title: text(i, 300), body: text(i + 7_919, 300) },
  metadata: { source: i % 3 === 0 ? "web" : i % 3 === 1 ? "book" : "forum", stars: i % 6, score: (i % 1000) / 1000 }
})

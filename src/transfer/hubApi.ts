/**
 * The Hugging Face Hub calls a dataset export and import need, as `huggingface_hub` makes them: create a dataset repo
 * (`POST /api/repos/create`, `type: "dataset"`), commit files (`POST /api/datasets/{repo}/commit/{revision}`, NDJSON:
 * small files inline in base64, large ones through the LFS batch API — `POST {repo}.git/info/lfs/objects/batch`, a
 * `PUT` of the bytes, the verify call — then an `lfsFile` line), list files (`GET /api/datasets/{repo}/tree/...`) and
 * download (`GET /datasets/{repo}/resolve/{revision}/{path}`). Base URL from `HF_ENDPOINT`, token as a bearer token.
 * Files are streamed from and to disk, never held whole.
 */
import { createHash } from "node:crypto"
import { createReadStream } from "node:fs"
import { open, readFile, stat } from "node:fs/promises"
import { FetchHttpClient, HttpClient, HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { Effect, Schema, Stream } from "effect"
import { HubRepoNotFound, HubRequestFailed, HubUnauthorized } from "./errors.js"

export type HubError = HubUnauthorized | HubRepoNotFound | HubRequestFailed

export interface HubConnection {
  /** Default: `HF_ENDPOINT`, else `https://huggingface.co`. */
  readonly endpoint?: string | undefined
  readonly token?: string | undefined
}

/** A local file to commit: inline when at most `inlineLimit` bytes, else through LFS. */
export interface CommitFile {
  readonly path: string
  readonly localPath: string
}

/** Files up to this size go inline in the commit (the Hub's own clients use LFS for anything large or binary). */
export const INLINE_LIMIT = 1024 * 1024

const TreeEntry = Schema.Struct({ type: Schema.String, path: Schema.String, size: Schema.optional(Schema.Number) })
const LfsBatch = Schema.Struct({
  objects: Schema.Array(Schema.Struct({
    oid: Schema.String,
    actions: Schema.optional(Schema.Struct({
      // A multipart upload's header holds `chunk_size` and one URL per part number.
      upload: Schema.optional(Schema.Struct({
        href: Schema.String,
        header: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, Schema.Number) }))
      })),
      verify: Schema.optional(Schema.Struct({ href: Schema.String }))
    })),
    error: Schema.optional(Schema.Struct({ code: Schema.Number, message: Schema.String }))
  }))
})

const LFS_JSON = "application/vnd.git-lfs+json"

const repoPath = (repoId: string) => repoId.split("/").map(encodeURIComponent).join("/")
const filePath = (path: string) => path.split("/").map(encodeURIComponent).join("/")

const sha256 = (localPath: string) =>
  Effect.tryPromise({
    try: async () => {
      const hash = createHash("sha256")
      for await (const chunk of createReadStream(localPath)) hash.update(chunk)
      return hash.digest("hex")
    },
    catch: (cause) => new HubRequestFailed({ operation: `read ${localPath}`, detail: String(cause) })
  })

export const makeHubApi = (repoId: string, connection: HubConnection) => {
  const endpoint = (connection.endpoint ?? process.env["HF_ENDPOINT"] ?? "https://huggingface.co").replace(/\/+$/, "")
  const authorize = (request: HttpClientRequest.HttpClientRequest) =>
    connection.token === undefined ? request : HttpClientRequest.bearerToken(request, connection.token)

  const failure = (operation: string, response: HttpClientResponse.HttpClientResponse) =>
    Effect.flatMap(Effect.orElseSucceed(response.text, () => ""), (text): Effect.Effect<never, HubError> => {
      const detail = response.headers["x-error-message"] ?? text.slice(0, 300)
      if (response.status === 401 && response.headers["x-error-code"] !== "RepoNotFound") {
        return Effect.fail(new HubUnauthorized({ operation, detail }))
      }
      if (response.status === 404 || response.status === 401) {
        return Effect.fail(new HubRepoNotFound({ repoId, detail: `${operation}: ${detail}` }))
      }
      return Effect.fail(new HubRequestFailed({ operation, status: response.status, detail }))
    })

  const execute = (operation: string, request: HttpClientRequest.HttpClientRequest) =>
    Effect.flatMap(HttpClient.HttpClient, (client) => client.execute(authorize(request))).pipe(
      Effect.provide(FetchHttpClient.layer),
      Effect.mapError((error) => new HubRequestFailed({ operation, detail: error.message })),
      Effect.flatMap((response) =>
        response.status >= 200 && response.status < 300 ? Effect.succeed(response) : failure(operation, response)
      )
    )

  const json = <A, I>(operation: string, schema: Schema.Schema<A, I>, request: HttpClientRequest.HttpClientRequest) =>
    Effect.flatMap(execute(operation, request), (response) =>
      Effect.flatMap(
        Effect.mapError(response.json, (error) => new HubRequestFailed({ operation, detail: error.message })),
        (body) =>
          Effect.mapError(
            Schema.decodeUnknown(schema)(body),
            (error) => new HubRequestFailed({ operation, detail: `unexpected body: ${error.message}` })
          )
      ))

  /** Creates the dataset repo; one that exists already is fine (`exist_ok=True`, as the SDK's push). */
  const createRepo = Effect.fn("GlossClient.hub.createRepo")(function*(options: { readonly private: boolean }) {
    const slash = repoId.indexOf("/")
    const body = {
      name: repoId.slice(slash + 1),
      organization: slash < 0 ? null : repoId.slice(0, slash),
      type: "dataset",
      private: options.private
    }
    const operation = "POST /api/repos/create"
    yield* execute(operation, HttpClientRequest.bodyUnsafeJson(HttpClientRequest.post(`${endpoint}/api/repos/create`), body))
      .pipe(Effect.catchIf(
        (error): error is HubRequestFailed => error._tag === "HubRequestFailed" && error.status === 409,
        () => Effect.void
      ))
  })

  /** A PUT of the bytes `start`..`end` (exclusive) of a file to a storage URL (pre-signed: no Hub token). */
  const putBytes = (operation: string, url: string, localPath: string, start: number, end: number) => {
    const body = Stream.fromAsyncIterable(
      createReadStream(localPath, { start, end: end - 1 }),
      (cause) => new HubRequestFailed({ operation: `read ${localPath}`, detail: String(cause) })
    ).pipe(Stream.map((chunk: Buffer) => new Uint8Array(chunk)))
    return Effect.flatMap(HttpClient.HttpClient, (client) =>
      client.execute(HttpClientRequest.put(url).pipe(
        HttpClientRequest.bodyStream(body, { contentLength: end - start, contentType: "application/octet-stream" })
      ))).pipe(
        Effect.provide(FetchHttpClient.layer),
        Effect.mapError((error) => new HubRequestFailed({ operation, detail: error.message })),
        Effect.flatMap((response) =>
          response.status >= 200 && response.status < 300 ? Effect.succeed(response) : failure(operation, response)
        )
      )
  }

  /**
   * Sends one large file through the LFS batch API, as huggingface_hub does: `basic` (one PUT) or, when the Hub
   * answers with a `chunk_size` and numbered part URLs, `multipart` (a PUT per part, then the completion call with
   * each part's ETag); then the verify call. Returns the file's `lfsFile` commit line.
   */
  const uploadLfs = Effect.fn("GlossClient.hub.uploadLfs")(function*(file: CommitFile, size: number) {
    const oid = yield* sha256(file.localPath)
    const operation = "POST lfs/objects/batch"
    const batch = yield* json(
      operation,
      LfsBatch,
      HttpClientRequest.post(`${endpoint}/datasets/${repoPath(repoId)}.git/info/lfs/objects/batch`).pipe(
        HttpClientRequest.setHeaders({ accept: LFS_JSON }),
        HttpClientRequest.bodyText(JSON.stringify({
          operation: "upload",
          transfers: ["basic", "multipart"],
          objects: [{ oid, size }],
          hash_algo: "sha256",
          ref: { name: "main" }
        }), LFS_JSON)
      )
    )
    const object = batch.objects.find((candidate) => candidate.oid === oid)
    if (object?.error !== undefined) {
      return yield* new HubRequestFailed({ operation, status: object.error.code, detail: object.error.message })
    }
    const upload = object?.actions?.upload
    if (upload !== undefined) {
      const header = new Map(Object.entries(upload.header ?? {}))
      const chunkSize = Number(header.get("chunk_size") ?? Number.NaN)
      if (Number.isNaN(chunkSize)) {
        yield* putBytes("PUT lfs object", upload.href, file.localPath, 0, size)
      } else {
        const parts = [...header].filter(([key]) => /^\d+$/.test(key)).sort(([a], [b]) => Number(a) - Number(b))
        if (chunkSize <= 0 || parts.length !== Math.ceil(size / chunkSize)) {
          return yield* new HubRequestFailed({ operation, detail: "a multipart upload whose parts do not cover the file" })
        }
        const etags = yield* Effect.forEach(parts, ([, url], index) =>
          Effect.map(
            putBytes(`PUT lfs part ${index + 1}`, String(url), file.localPath, index * chunkSize, Math.min(size, (index + 1) * chunkSize)),
            (response) => ({ partNumber: index + 1, etag: response.headers["etag"] ?? "" })
          ))
        yield* execute(
          "POST lfs multipart completion",
          HttpClientRequest.post(upload.href).pipe(
            HttpClientRequest.setHeaders({ accept: LFS_JSON }),
            HttpClientRequest.bodyText(JSON.stringify({ oid, parts: etags }), LFS_JSON)
          )
        )
      }
      const verify = object?.actions?.verify
      if (verify !== undefined) {
        yield* execute("POST lfs verify", HttpClientRequest.bodyUnsafeJson(HttpClientRequest.post(verify.href), { oid, size }))
      }
    }
    return { key: "lfsFile", value: { path: file.path, algo: "sha256", oid, size } }
  })

  /** One commit with every file: inline (base64) up to `inlineLimit` bytes, LFS above; and the deletions. */
  const commit = Effect.fn("GlossClient.hub.commit")(function*(
    files: ReadonlyArray<CommitFile>,
    summary: string,
    options: {
      readonly inlineLimit?: number | undefined
      readonly revision?: string | undefined
      /** Paths the same commit removes (`deletedFile` lines). */
      readonly delete?: ReadonlyArray<string> | undefined
    } = {}
  ) {
    const limit = options.inlineLimit ?? INLINE_LIMIT
    const lines: Array<unknown> = [
      { key: "header", value: { summary, description: "" } },
      ...(options.delete ?? []).map((path) => ({ key: "deletedFile", value: { path } }))
    ]
    for (const file of files) {
      const size = yield* Effect.tryPromise({
        try: () => stat(file.localPath).then((s) => s.size),
        catch: (cause) => new HubRequestFailed({ operation: `read ${file.localPath}`, detail: String(cause) })
      })
      if (size > limit) {
        lines.push(yield* uploadLfs(file, size))
      } else {
        const content = yield* Effect.tryPromise({
          try: () => readFile(file.localPath),
          catch: (cause) => new HubRequestFailed({ operation: `read ${file.localPath}`, detail: String(cause) })
        })
        lines.push({ key: "file", value: { path: file.path, encoding: "base64", content: content.toString("base64") } })
      }
    }
    const revision = encodeURIComponent(options.revision ?? "main")
    yield* execute(
      "POST commit",
      HttpClientRequest.post(`${endpoint}/api/datasets/${repoPath(repoId)}/commit/${revision}`).pipe(
        HttpClientRequest.bodyText(lines.map((line) => JSON.stringify(line)).join("\n"), "application/x-ndjson")
      )
    )
  })

  /** Every file of the repo (recursively), with sizes, following the tree API's `Link: <…>; rel="next"` pages. */
  const listFiles = Effect.fn("GlossClient.hub.listFiles")(function*(revision = "main") {
    const files: Array<typeof TreeEntry.Type> = []
    let next: string | undefined = `${endpoint}/api/datasets/${repoPath(repoId)}/tree/${encodeURIComponent(revision)}?recursive=true`
    while (next !== undefined) {
      const response: HttpClientResponse.HttpClientResponse = yield* execute("GET tree", HttpClientRequest.get(next))
      const body: unknown = yield* Effect.mapError(
        response.json,
        (error) => new HubRequestFailed({ operation: "GET tree", detail: error.message })
      )
      const entries = yield* Effect.mapError(
        Schema.decodeUnknown(Schema.Array(TreeEntry))(body),
        (error) => new HubRequestFailed({ operation: "GET tree", detail: `unexpected body: ${error.message}` })
      )
      files.push(...entries.filter((entry) => entry.type === "file"))
      next = /<([^>]+)>;\s*rel="next"/.exec(response.headers["link"] ?? "")?.[1]
    }
    return files
  })

  /** Downloads one file to `localPath`, chunk by chunk. */
  const download = Effect.fn("GlossClient.hub.download")(function*(path: string, localPath: string, revision = "main") {
    const operation = `GET resolve ${path}`
    const response = yield* execute(
      operation,
      HttpClientRequest.get(`${endpoint}/datasets/${repoPath(repoId)}/resolve/${encodeURIComponent(revision)}/${filePath(path)}`)
    )
    yield* Effect.acquireUseRelease(
      Effect.tryPromise({
        try: () => open(localPath, "w"),
        catch: (cause) => new HubRequestFailed({ operation: `write ${localPath}`, detail: String(cause) })
      }),
      (handle) =>
        response.stream.pipe(
          Stream.mapError((error) => new HubRequestFailed({ operation, detail: error.message })),
          Stream.runForEach((chunk) =>
            Effect.tryPromise({
              try: () => handle.write(chunk),
              catch: (cause) => new HubRequestFailed({ operation: `write ${localPath}`, detail: String(cause) })
            })
          )
        ),
      (handle) => Effect.promise(() => handle.close())
    )
  })

  /** A small file's text (the settings files). */
  const text = Effect.fn("GlossClient.hub.text")(function*(path: string, revision = "main") {
    const operation = `GET resolve ${path}`
    const response = yield* execute(
      operation,
      HttpClientRequest.get(`${endpoint}/datasets/${repoPath(repoId)}/resolve/${encodeURIComponent(revision)}/${filePath(path)}`)
    )
    return yield* Effect.mapError(response.text, (error) => new HubRequestFailed({ operation, detail: error.message }))
  })

  return { endpoint, createRepo, commit, listFiles, download, text }
}

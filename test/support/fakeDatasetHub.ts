/**
 * A fake Hugging Face Hub for dataset repos on a loopback port: repo creation (`private` kept), the NDJSON
 * commit API (inline base64 files and `lfsFile` lines), the LFS batch API with a basic upload and verify, the tree
 * listing and `resolve` downloads, and bearer-token auth (any other token: 401, as the Hub answers). Files live in
 * memory; every call is recorded.
 */
import { createHash } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { Effect, type Scope } from "effect"

export const HUB_TOKEN = "hf_fake_dataset_hub_token"

const COMMIT = "0123456789abcdef0123456789abcdef01234567"
const etag = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex")

export interface FakeRepo {
  readonly private: boolean
  readonly files: Map<string, Buffer>
  readonly commits: Array<string>
}

export interface FakeDatasetHub {
  readonly url: string
  readonly repos: Map<string, FakeRepo>
  readonly calls: Array<string>
}

const body = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => resolve(Buffer.concat(chunks)))
    req.on("error", reject)
  })

const send = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers })
  res.end(JSON.stringify(value))
}

export interface FakeHubOptions {
  /** LFS objects larger than this go through the multipart transfer, in parts of this size (default: never). */
  readonly multipartChunk?: number
  /** Tree listings are paged by this many entries, with a `Link: <…>; rel="next"` header (default: one page). */
  readonly treePage?: number
}

export const fakeDatasetHub = (
  initial: Record<string, FakeRepo> = {},
  options: FakeHubOptions = {}
): Effect.Effect<FakeDatasetHub, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<{ hub: FakeDatasetHub; close: () => void }>((resolve) => {
        const repos = new Map(Object.entries(initial))
        const calls: Array<string> = []
        const lfs = new Map<string, Buffer>()
        const parts = new Map<string, Map<number, Buffer>>()
        let url = ""
        const server = createServer((req, res) => {
          void (async () => {
            const path = new URL(req.url ?? "/", "http://hub.test").pathname
            const query = new URL(req.url ?? "/", "http://hub.test").searchParams
            calls.push(`${req.method} ${path}`)
            const raw = await body(req)
            // Storage URLs (the LFS upload) are pre-signed: no token.
            const upload = /^\/lfs-storage\/([0-9a-f]{64})$/.exec(path)
            if (req.method === "PUT" && upload) {
              lfs.set(upload[1]!, raw)
              return send(res, 200, {})
            }
            const part = /^\/lfs-part\/([0-9a-f]{64})\/(\d+)$/.exec(path)
            if (req.method === "PUT" && part) {
              const got = parts.get(part[1]!) ?? new Map<number, Buffer>()
              got.set(Number(part[2]), raw)
              parts.set(part[1]!, got)
              res.writeHead(200, { etag: `"etag-${part[2]}"` })
              return res.end()
            }
            const complete = /^\/lfs-complete\/([0-9a-f]{64})$/.exec(path)
            if (req.method === "POST" && complete) {
              const oid = complete[1]!
              const { parts: listed } = JSON.parse(raw.toString()) as { parts: Array<{ partNumber: number; etag: string }> }
              const got = parts.get(oid) ?? new Map<number, Buffer>()
              if (listed.length !== got.size || listed.some((p) => p.etag !== `"etag-${p.partNumber}"`)) {
                return send(res, 400, { error: "parts and ETags do not match what was uploaded" })
              }
              const whole = Buffer.concat(listed.map((p) => got.get(p.partNumber)!))
              if (etag(whole) !== oid) return send(res, 400, { error: "the parts do not hash to the object id" })
              lfs.set(oid, whole)
              return send(res, 200, {})
            }
            if (req.headers.authorization !== `Bearer ${HUB_TOKEN}`) {
              return send(res, 401, { error: "Invalid credentials in Authorization header" }, {
                "x-error-message": "Invalid credentials in Authorization header"
              })
            }
            if (req.method === "POST" && path === "/api/repos/create") {
              const { name, organization, type, private: isPrivate } = JSON.parse(raw.toString())
              if (type !== "dataset") return send(res, 400, { error: `unexpected type ${type}` })
              const id = `${organization}/${name}`
              if (repos.has(id)) return send(res, 409, { error: "You already created this dataset repo", url: `${url}/datasets/${id}` })
              repos.set(id, { private: isPrivate === true, files: new Map(), commits: [] })
              return send(res, 200, { url: `${url}/datasets/${id}` })
            }
            // The dataset card's metadata check (the SDK's to_hub card): every card is valid here.
            if (req.method === "POST" && path === "/api/validate-yaml") return send(res, 200, { errors: [], warnings: [] })
            const batch = /^\/datasets\/([^/]+\/[^/]+)\.git\/info\/lfs\/objects\/batch$/.exec(path)
            if (req.method === "POST" && batch) {
              if (!repos.has(batch[1]!)) return send(res, 404, { message: "Repository not found" })
              const { objects } = JSON.parse(raw.toString()) as { objects: Array<{ oid: string; size: number }> }
              return send(res, 200, {
                objects: objects.map(({ oid, size }) => {
                  const chunk = options.multipartChunk
                  const multipart = chunk !== undefined && size > chunk
                  const header = multipart
                    ? Object.fromEntries([
                      ["chunk_size", String(chunk)],
                      ...Array.from({ length: Math.ceil(size / chunk) }, (_, i) => [String(i + 1), `${url}/lfs-part/${oid}/${i + 1}`])
                    ])
                    : undefined
                  return {
                    oid,
                    size,
                    actions: lfs.has(oid) ? undefined : {
                      upload: multipart ? { href: `${url}/lfs-complete/${oid}`, header } : { href: `${url}/lfs-storage/${oid}` },
                      verify: { href: `${url}/lfs-verify/${oid}` }
                    }
                  }
                })
              })
            }
            const verify = /^\/lfs-verify\/([0-9a-f]{64})$/.exec(path)
            if (req.method === "POST" && verify) {
              return lfs.has(verify[1]!) ? send(res, 200, {}) : send(res, 404, { message: "object not uploaded" })
            }
            const api = /^\/api\/datasets\/([^/]+\/[^/]+)\/(commit|tree|revision|paths-info|preupload)\/(?:main|[0-9a-f]{40})(?:\/(.*))?$/.exec(path)
            const info = /^\/api\/datasets\/([^/]+\/[^/]+)$/.exec(path)
            const resolveMatch = /^\/datasets\/([^/]+\/[^/]+)\/resolve\/(?:main|[0-9a-f]{40})\/(.+)$/.exec(path)
            const id = api?.[1] ?? resolveMatch?.[1] ?? info?.[1]
            const repo = id === undefined ? undefined : repos.get(id)
            if (repo === undefined) {
              return send(res, 404, { error: "Repository not found" }, { "x-error-code": "RepoNotFound" })
            }
            if (req.method === "POST" && api?.[2] === "commit") {
              const lines = raw.toString().split("\n").filter((line) => line.length > 0).map((line) => JSON.parse(line))
              for (const { key, value } of lines) {
                if (key === "header") repo.commits.push(value.summary)
                else if (key === "deletedFile") repo.files.delete(value.path)
                else if (key === "file") repo.files.set(value.path, Buffer.from(value.content, "base64"))
                else if (key === "lfsFile") {
                  const bytes = lfs.get(value.oid)
                  if (bytes === undefined || bytes.length !== value.size) {
                    return send(res, 422, { error: `LFS object ${value.oid} was not uploaded` })
                  }
                  repo.files.set(value.path, bytes)
                }
              }
              return send(res, 200, { commitOid: "0".repeat(40), commitUrl: `${url}/datasets/${id}/commit/0` })
            }
            // What huggingface_hub and datasets read (the SDK's from_hub): repo info, tree under a path, paths-info.
            const entries = (under: string, recursive: boolean) => {
              const prefix = under === "" ? "" : `${under.replace(/\/$/, "")}/`
              const out = new Map<string, unknown>()
              for (const [p, b] of repo.files) {
                if (!p.startsWith(prefix)) continue
                const rest = p.slice(prefix.length).split("/")
                if (rest.length === 1 || recursive) out.set(p, { type: "file", path: p, size: b.length, oid: etag(b) })
                else out.set(prefix + rest[0], { type: "directory", path: prefix + rest[0], oid: COMMIT })
                if (recursive) {
                  for (let k = 1; k < rest.length; k++) {
                    const dir = prefix + rest.slice(0, k).join("/")
                    out.set(dir, { type: "directory", path: dir, oid: COMMIT })
                  }
                }
              }
              return [...out.values()]
            }
            if (req.method === "GET" && (info || api?.[2] === "revision")) {
              return send(res, 200, {
                id,
                _id: id,
                sha: COMMIT,
                private: repo.private,
                siblings: [...repo.files.keys()].map((rfilename) => ({ rfilename })),
                cardData: {},
                tags: [],
                lastModified: "2024-01-01T00:00:00.000Z"
              })
            }
            if (req.method === "GET" && api?.[2] === "tree") {
              const under = decodeURIComponent(api[3] ?? "")
              const found = entries(under, query.get("recursive") === "true")
              // The Hub answers a folder that does not exist with 404 EntryNotFound (huggingface_hub relies on it).
              if (under !== "" && found.length === 0) {
                return send(res, 404, { error: `Entry not found: ${under}` }, { "x-error-code": "EntryNotFound" })
              }
              const page = options.treePage
              if (page === undefined) return send(res, 200, found)
              const cursor = Number(query.get("cursor") ?? "0")
              const more = cursor + page < found.length
              const link = `<${url}${path}?recursive=${query.get("recursive") ?? "false"}&cursor=${cursor + page}>; rel="next"`
              return send(res, 200, found.slice(cursor, cursor + page), more ? { link } : {})
            }
            if (req.method === "POST" && api?.[2] === "preupload") {
              const { files } = JSON.parse(raw.toString()) as { files: Array<{ path: string; size: number }> }
              return send(res, 200, {
                files: files.map((file) => ({
                  path: file.path,
                  uploadMode: file.path.endsWith(".parquet") || file.size > 10_000_000 ? "lfs" : "regular",
                  shouldIgnore: false
                }))
              })
            }
            if (req.method === "POST" && api?.[2] === "paths-info") {
              const form = new URLSearchParams(raw.toString())
              const asked = form.getAll("paths").length > 0 ? form.getAll("paths") : (JSON.parse(raw.toString() || "{}").paths ?? [])
              return send(res, 200, asked.flatMap((p: string) => {
                const file = repo.files.get(p)
                if (file !== undefined) return [{ type: "file", path: p, size: file.length, oid: etag(file) }]
                return [...repo.files.keys()].some((k) => k.startsWith(`${p}/`)) ? [{ type: "directory", path: p, oid: COMMIT }] : []
              }))
            }
            if ((req.method === "GET" || req.method === "HEAD") && resolveMatch) {
              const file = repo.files.get(decodeURIComponent(resolveMatch[2]!))
              if (file === undefined) return send(res, 404, { error: "Entry not found" }, { "x-error-code": "EntryNotFound" })
              res.writeHead(200, {
                "content-type": "application/octet-stream",
                "content-length": String(file.length),
                etag: `"${etag(file)}"`,
                "x-repo-commit": COMMIT
              })
              return res.end(req.method === "HEAD" ? undefined : file)
            }
            return send(res, 404, { error: "Not Found" })
          })()
        })
        server.listen(0, "127.0.0.1", () => {
          const address = server.address()
          url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
          resolve({ hub: { url, repos, calls }, close: () => server.close() })
        })
      })
    ),
    ({ close }) => Effect.sync(close)
  ).pipe(Effect.map(({ hub }) => hub))

/**
 * A fake Hugging Face Hub for dataset repos on a loopback port (issue 21): repo creation (`private` kept), the NDJSON
 * commit API (inline base64 files and `lfsFile` lines), the LFS batch API with a basic upload and verify, the tree
 * listing and `resolve` downloads, and bearer-token auth (any other token: 401, as the Hub answers). Files live in
 * memory; every call is recorded.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { Effect, type Scope } from "effect"

export const HUB_TOKEN = "hf_fake_dataset_hub_token"

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

export const fakeDatasetHub = (
  initial: Record<string, FakeRepo> = {}
): Effect.Effect<FakeDatasetHub, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<{ hub: FakeDatasetHub; close: () => void }>((resolve) => {
        const repos = new Map(Object.entries(initial))
        const calls: Array<string> = []
        const lfs = new Map<string, Buffer>()
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
            const batch = /^\/datasets\/([^/]+\/[^/]+)\.git\/info\/lfs\/objects\/batch$/.exec(path)
            if (req.method === "POST" && batch) {
              if (!repos.has(batch[1]!)) return send(res, 404, { message: "Repository not found" })
              const { objects } = JSON.parse(raw.toString()) as { objects: Array<{ oid: string; size: number }> }
              return send(res, 200, {
                objects: objects.map(({ oid, size }) => ({
                  oid,
                  size,
                  actions: lfs.has(oid) ? undefined : {
                    upload: { href: `${url}/lfs-storage/${oid}` },
                    verify: { href: `${url}/lfs-verify/${oid}` }
                  }
                }))
              })
            }
            const verify = /^\/lfs-verify\/([0-9a-f]{64})$/.exec(path)
            if (req.method === "POST" && verify) {
              return lfs.has(verify[1]!) ? send(res, 200, {}) : send(res, 404, { message: "object not uploaded" })
            }
            const api = /^\/api\/datasets\/([^/]+\/[^/]+)\/(commit|tree)\/main$/.exec(path)
            const resolveMatch = /^\/datasets\/([^/]+\/[^/]+)\/resolve\/main\/(.+)$/.exec(path)
            const id = api?.[1] ?? resolveMatch?.[1]
            const repo = id === undefined ? undefined : repos.get(id)
            if (repo === undefined) {
              return send(res, 404, { error: "Repository not found" }, { "x-error-code": "RepoNotFound" })
            }
            if (req.method === "POST" && api?.[2] === "commit") {
              const lines = raw.toString().split("\n").filter((line) => line.length > 0).map((line) => JSON.parse(line))
              for (const { key, value } of lines) {
                if (key === "header") repo.commits.push(value.summary)
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
            if (req.method === "GET" && api?.[2] === "tree") {
              if (query.get("recursive") !== "true") return send(res, 400, { error: "expected recursive=true" })
              return send(res, 200, [...repo.files].map(([p, b]) => ({ type: "file", path: p, size: b.length })))
            }
            if (req.method === "GET" && resolveMatch) {
              const file = repo.files.get(decodeURIComponent(resolveMatch[2]!))
              if (file === undefined) return send(res, 404, { error: "Entry not found" }, { "x-error-code": "EntryNotFound" })
              res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(file.length) })
              return res.end(file)
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

/**
 * Argilla's own web UI (the static folder of the `argilla-server` wheel, fetched by scripts/argilla-ui.sh) served
 * the way argilla-server serves it (`configure_app_statics` and `RewriteStaticFiles` in its `_app.py` and
 * `static_rewrite.py`), in front of a Gloss server: one origin, the UI at `/` and `/api/*` passed through to Gloss.
 *
 * - `@@baseUrl@@` in every .js and .html file is replaced by the base URL without its trailing slash: "" for "/".
 * - GET and HEAD only (else 405); a file is served as is; a folder serves its index.html; anything else falls back
 *   to the root index.html with 200 (the SPA's history fallback).
 */
import { existsSync, readFileSync, statSync } from "node:fs"
import { createServer, request } from "node:http"
import type { AddressInfo } from "node:net"
import { homedir } from "node:os"
import { extname, join, normalize, sep } from "node:path"

export const ARGILLA_UI_VERSION = "2.8.0"

/** Where scripts/argilla-ui.sh puts the UI (the same rule as the script's). */
export const argillaUiDir = () => {
  const dir = process.env["GLOSS_ARGILLA_UI_DIR"] ??
    (process.getuid?.() === 0 ? "/var/cache/gloss-argilla-ui" : join(homedir(), ".cache/gloss/argilla-ui"))
  return join(dir, ARGILLA_UI_VERSION, "static")
}

export const hasArgillaUi = () => existsSync(join(argillaUiDir(), "index.html"))

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".md": "text/markdown; charset=utf-8"
}

const BASE_URL_VAR = "@@baseUrl@@"

export interface ArgillaUiServer {
  readonly url: string
  readonly close: () => Promise<void>
}

/** Serves `staticDir` on a random loopback port, passing `/api/*` to `apiOrigin` (`http://host:port`). */
export const serveArgillaUi = (staticDir: string, apiOrigin: string): Promise<ArgillaUiServer> => {
  const api = new URL(apiOrigin)
  // argilla-server: helpers.remove_suffix(settings.base_url, "/"), with the default base URL "/".
  const baseUrl = ""
  const cache = new Map<string, Buffer>()
  const read = (file: string) => {
    let body = cache.get(file)
    if (body === undefined) {
      body = readFileSync(file)
      const extension = extname(file)
      if (extension === ".js" || extension === ".html") {
        body = Buffer.from(body.toString("utf8").replaceAll(BASE_URL_VAR, baseUrl), "utf8")
      }
      cache.set(file, body)
    }
    return body
  }
  const isFile = (file: string) => existsSync(file) && statSync(file).isFile()
  const lookup = (pathname: string): string => {
    const file = normalize(join(staticDir, decodeURIComponent(pathname)))
    if (file !== staticDir && !file.startsWith(staticDir + sep)) return join(staticDir, "index.html")
    if (isFile(file)) return file
    if (existsSync(file) && statSync(file).isDirectory() && isFile(join(file, "index.html"))) return join(file, "index.html")
    return join(staticDir, "index.html")
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname
    if (path === "/api" || path.startsWith("/api/")) {
      const upstream = request({
        host: api.hostname,
        port: api.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: api.host }
      }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      upstream.on("error", (error) => {
        res.writeHead(502, { "content-type": "text/plain" })
        res.end(`proxy: ${error.message}`)
      })
      req.pipe(upstream)
      return
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { "content-type": "application/json" })
      res.end(JSON.stringify({ detail: "Method Not Allowed" }))
      return
    }
    const file = lookup(path)
    const body = read(file)
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "content-length": body.length })
    res.end(req.method === "HEAD" ? undefined : body)
  })

  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise<void>((done) => {
          server.closeAllConnections()
          server.close(() => done())
        })
      })
    })
  })
}

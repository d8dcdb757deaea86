/**
 * Serves the built web UI (`dist/ui`, made by `npm run build:ui` from `ui/`) beside the API: files by path, and
 * `index.html` for the UI's own routes (history fallback), never for `/api/...`. Hashed assets are cached for a
 * year; the two HTML pages are revalidated on every load. The files are read and gzipped once, on first request.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as zlib from "node:zlib"
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Layer, Option } from "effect"
import { GlossConfig } from "../Config.js"
import { unrouted } from "./Routes.js"

interface StaticFile {
  readonly body: Uint8Array
  readonly gzip: Uint8Array | undefined
  readonly type: string
  readonly headers: Readonly<Record<string, string>>
}

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
  ".woff2": "font/woff2"
}
const COMPRESSIBLE = new Set([".html", ".js", ".css", ".svg", ".json", ".txt"])

/**
 * The app may only load its own files; images in records may come from anywhere. Custom fields render in the
 * sandboxed frame, whose page has its own, looser policy (below).
 */
const APP_CSP = [
  "default-src 'self'",
  "img-src 'self' data: blob: http: https:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'"
].join("; ")

/**
 * The custom-field frame runs dataset authors' templates: `sandbox="allow-scripts"` without `allow-same-origin`
 * gives it an opaque origin, so it cannot read the app's storage (the token) or call the API as the user.
 * Handlebars compiles templates with `new Function`, hence `'unsafe-eval'`; advanced templates bring inline code.
 */
const SANDBOX_CSP = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src data: blob: http: https:",
  "font-src data:",
  "media-src data: blob: http: https:"
].join("; ")

const COMMON = { "x-content-type-options": "nosniff", "referrer-policy": "same-origin" }

/** `dist/ui` beside the bundled server (`dist/gloss.mjs`), or from the sources (`src/http/` under tsx). */
const uiRoot = (): Option.Option<string> => {
  const here = path.dirname(fileURLToPath(import.meta.url))
  const found = [path.join(here, "ui"), path.join(here, "..", "..", "dist", "ui")]
    .find((dir) => fs.existsSync(path.join(dir, "index.html")))
  return Option.fromNullable(found)
}

const walk = (dir: string, prefix = ""): Array<[string, string]> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry): Array<[string, string]> =>
    entry.isDirectory()
      ? walk(path.join(dir, entry.name), `${prefix}/${entry.name}`)
      : [[`${prefix}/${entry.name}`, path.join(dir, entry.name)]]
  )

const headersFor = (urlPath: string): Record<string, string> => {
  if (urlPath === "/index.html") {
    return { ...COMMON, "cache-control": "no-cache", "content-security-policy": APP_CSP }
  }
  if (urlPath === "/sandbox.html") return { ...COMMON, "cache-control": "no-cache", "content-security-policy": SANDBOX_CSP }
  if (urlPath.startsWith("/assets/")) {
    // Content-hashed names. The sandboxed frame has an opaque origin, so its module scripts load cross-origin.
    return { ...COMMON, "cache-control": "public, max-age=31536000, immutable", "access-control-allow-origin": "*" }
  }
  return { ...COMMON, "cache-control": "no-cache" }
}

/** Reads every file once; `index.html` gets the base URL so relative asset paths work on any client route. */
const loadFiles = (baseUrl: string) =>
  Effect.sync(() =>
    Option.map(uiRoot(), (root) => {
      const files = new Map<string, StaticFile>()
      for (const [urlPath, file] of walk(root)) {
        const ext = path.extname(file).toLowerCase()
        let body: Uint8Array = fs.readFileSync(file)
        if (ext === ".html") {
          body = Buffer.from(body.toString().replace(/<base href="[^"]*"\s*\/?>/, `<base href="${baseUrl}/">`))
        }
        const gzip = COMPRESSIBLE.has(ext) && body.byteLength > 1024 ? zlib.gzipSync(body, { level: 9 }) : undefined
        files.set(urlPath, { body, gzip, type: TYPES[ext] ?? "application/octet-stream", headers: headersFor(urlPath) })
      }
      return files
    })
  )

const notFound = HttpServerResponse.unsafeJson({ detail: "Not Found" }, { status: 404 })

const notBuilt = HttpServerResponse.text(
  "The Gloss web UI is not built. Run `npm run build:ui` (npm start does it), then restart the server.\n",
  { status: 503, headers: { "cache-control": "no-store" } }
)

const respond = (file: StaticFile, acceptEncoding: string) => {
  const gzipped = file.gzip !== undefined && /\bgzip\b/.test(acceptEncoding)
  return HttpServerResponse.uint8Array(gzipped && file.gzip !== undefined ? file.gzip : file.body, {
    contentType: file.type,
    headers: {
      ...file.headers,
      ...(file.gzip === undefined ? {} : { vary: "accept-encoding" }),
      ...(gzipped ? { "content-encoding": "gzip" } : {})
    }
  })
}

const pathOf = (url: string): string | undefined => {
  const end = url.search(/[?#]/)
  try {
    return decodeURIComponent(end === -1 ? url : url.slice(0, end))
  } catch {
    return undefined
  }
}

/** `GET` on anything the API does not route. Must come after the API's own routes (it is a catch-all). */
export const StaticUiLive = Layer.unwrapEffect(Effect.map(GlossConfig, ({ server }) =>
  HttpApiBuilder.Router.use((router) =>
    Effect.flatMap(Effect.cached(loadFiles(server.baseUrl)), (files) =>
      router.get(
        "*",
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const urlPath = pathOf(request.url)
          if (urlPath === undefined) return notFound
          // A GET of an API path that takes other methods is a 405; of any other API path a 404.
          if (urlPath === "/api" || urlPath.startsWith("/api/")) return unrouted(request.method, urlPath)
          const wantsHtml = (request.headers["accept"] ?? "").includes("text/html")
          const loaded = yield* files
          if (Option.isNone(loaded)) return wantsHtml ? notBuilt : notFound
          const encoding = request.headers["accept-encoding"] ?? ""
          const file = loaded.value.get(urlPath === "/" ? "/index.html" : urlPath)
          if (file !== undefined) return respond(file, encoding)
          // A client route (`/dataset/…/annotation-mode`): no extension, asked for by a browser.
          const index = loaded.value.get("/index.html")
          const isFile = /\.[A-Za-z0-9]+$/.test(urlPath) || urlPath.startsWith("/assets/")
          return !isFile && wantsHtml && index !== undefined ? respond(index, encoding) : notFound
        })
      )
    )
  )))

/**
 * The API's routes as data, read from the one `HttpApi`: which methods a path answers (a wrong method is a 405, not
 * a 404) and what body each endpoint reads (JSON, a form, or none), so that a body of another media type is refused
 * with 415 before anything tries to parse it.
 */
import { HttpApi, type HttpMethod, HttpServerResponse } from "@effect/platform"
import { Api } from "../contract/Api.js"

export const pathOf = (url: string) => {
  const query = url.indexOf("?")
  return query === -1 ? url : url.slice(0, query)
}

/**
 * The path as the API's routes spell it: without the query and without `GLOSS_BASE_URL`; undefined for a path
 * outside the base URL, where the API answers nothing.
 */
export const routePath = (url: string, baseUrl: string): string | undefined => {
  const path = pathOf(url)
  if (baseUrl === "") return path
  return path.startsWith(baseUrl + "/") ? path.slice(baseUrl.length) : undefined
}

export type BodyKind = "json" | "form" | "none"

interface Route {
  readonly method: HttpMethod.HttpMethod
  readonly matches: (path: string) => boolean
  readonly body: BodyKind
}

/** `/datasets/:id/records` → a test for `/datasets/<anything but a slash>/records`. */
const matcher = (template: string) => {
  const pattern = template.split("/").map((segment) =>
    segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  ).join("/")
  const regex = new RegExp(`^${pattern}$`)
  return (path: string) => regex.test(path)
}

const routes: ReadonlyArray<Route> = (() => {
  const found: Array<Route> = []
  HttpApi.reflect(Api, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint, payloads }) => {
      const kinds = [...payloads.values()].map(({ encoding }) => encoding.kind)
      const body: BodyKind = endpoint.method === "GET" || kinds.length === 0
        ? "none"
        : kinds.includes("UrlParams")
        ? "form"
        : "json"
      found.push({ method: endpoint.method, matches: matcher(endpoint.path), body })
    }
  })
  return found
})()

/** The methods the API answers at `path` (HEAD wherever GET is); empty when the path is not one of the API's. */
export const methodsAt = (path: string): ReadonlyArray<string> => {
  const methods = new Set(routes.filter((route) => route.matches(path)).map((route) => route.method))
  if (methods.has("GET")) methods.add("HEAD")
  return [...methods]
}

/** What body the endpoint at `method` `path` reads; undefined when there is no such endpoint. */
export const bodyAt = (method: string, path: string): BodyKind | undefined =>
  routes.find((route) => route.method === method && route.matches(path))?.body

const notFound = HttpServerResponse.unsafeJson({ detail: "Not Found" }, { status: 404 })

/**
 * The answer when nothing routes a request: 405 with `Allow` for a method the path does not take, else 404 (a path
 * the API does not have, or one the router could not match although a template would, e.g. odd percent-encoding).
 */
export const unrouted = (method: string, path: string | undefined): HttpServerResponse.HttpServerResponse => {
  const allowed = path === undefined ? [] : methodsAt(path)
  return allowed.length === 0 || allowed.includes(method)
    ? notFound
    : HttpServerResponse.unsafeJson({ detail: "Method Not Allowed" }, { status: 405, headers: { allow: allowed.join(", ") } })
}

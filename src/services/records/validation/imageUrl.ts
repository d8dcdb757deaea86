/** Image field values: a web URL the browser fetches, or a data URL holding the image itself. */
import { type Check, exceedsCodePoints, fail, ok, show } from "./common.js"

const WEB_URL_MAX_LENGTH = 2038
const DATA_URL_MAX_LENGTH = 5_000_000

/**
 * Argilla's list, plus `image/svg+xml`: that is the registered SVG type browsers produce for data URLs, while
 * Argilla's `image/svg` entry never matches a real one.
 */
const DATA_URL_MIME_TYPES: ReadonlyArray<string> = [
  "image/avif",
  "image/gif",
  "image/ico",
  "image/jpeg",
  "image/jpg",
  "image/png",
  "image/svg",
  "image/svg+xml",
  "image/webp"
]

const SCHEME = /^([a-z][a-z0-9+.-]*):/i
/** Split as Python's `urlparse` does: the host runs from `//` to the first `/`, `?` or `#`; the path up to `?`/`#`. */
const WEB_URL = /^[a-z]+:\/\/([^/?#]*)([^?#]*)/i

const invalid = (field: string, value: string) => fail(`image field '${field}' has an invalid URL value ${show(value)}`)

const validateWebUrl = (field: string, url: string): Check => {
  const [, host = "", path = ""] = WEB_URL.exec(url) ?? []
  if (host === "" || path === "") return invalid(field, url)
  if (exceedsCodePoints(url, WEB_URL_MAX_LENGTH)) {
    return fail(`image field '${field}' value is exceeding the maximum length of ${WEB_URL_MAX_LENGTH} characters for Web URLs`)
  }
  return ok
}

/** The media type as Python's `mimetypes.guess_type` reads a data URL: up to the first `;` or the `,`. */
const dataUrlMimeType = (url: string): string | undefined => {
  const body = url.slice("data:".length)
  const comma = body.indexOf(",")
  if (comma < 0) return undefined
  const semicolon = body.slice(0, comma).indexOf(";")
  const type = body.slice(0, semicolon >= 0 ? semicolon : comma)
  return type.includes("=") || !type.includes("/") ? "text/plain" : type
}

const validateDataUrl = (field: string, url: string): Check => {
  if (exceedsCodePoints(url, DATA_URL_MAX_LENGTH)) {
    return fail(`image field '${field}' value is exceeding the maximum length of ${DATA_URL_MAX_LENGTH} characters for Data URLs`)
  }
  const mimeType = dataUrlMimeType(url)
  if (mimeType === undefined) return invalid(field, url)
  // Media types are case-insensitive (RFC 2045), so `image/PNG` is as good as `image/png`.
  if (!DATA_URL_MIME_TYPES.includes(mimeType.toLowerCase())) {
    return fail(
      `image field '${field}' value is using an unsupported MIME type ${show(mimeType)}, supported MIME types are: ` +
        DATA_URL_MIME_TYPES.join(", ")
    )
  }
  return ok
}

export const validateImageUrl = (field: string, value: unknown): Check => {
  if (typeof value !== "string") return fail(`image field '${field}' value must be a URL string, found ${show(value)}`)
  const scheme = SCHEME.exec(value)?.[1]?.toLowerCase()
  if (scheme === "http" || scheme === "https") return validateWebUrl(field, value)
  if (scheme === "data") return validateDataUrl(field, value)
  return invalid(field, value)
}


/**
 * One POST to a receiver over node:http(s), with the socket's `lookup` supplied by the caller (the destination
 * check: see `Destinations.ts`). Redirects are not followed (node:http never does), and only the status is read:
 * the connection is dropped once the head has arrived, whatever the receiver goes on sending.
 */
import * as http from "node:http"
import * as https from "node:https"
import type { LookupFunction } from "node:net"
import { VERSION } from "../../version.js"

export const post = (
  url: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  lookup: LookupFunction,
  signal: AbortSignal
): Promise<number> =>
  new Promise((resolve, reject) => {
    const target = new URL(url)
    const client = target.protocol === "https:" ? https : http
    const request = client.request(target, {
      method: "POST",
      headers: { "user-agent": `gloss/${VERSION}`, ...headers, "content-length": String(Buffer.byteLength(body)) },
      lookup,
      signal,
      // A connection per request: a pooled socket would outlive the check of the address it was opened to.
      agent: false
    }, (response) => {
      resolve(response.statusCode ?? 0)
      response.destroy()
    })
    request.on("error", reject)
    request.end(body)
  })

/** What went wrong, in a word where there is one: `ECONNREFUSED`, `ENOTFOUND`, `HPE_INVALID_CONSTANT`… */
export const errorCode = (error: unknown): string => {
  if (typeof error === "object" && error !== null && "code" in error && typeof error.code === "string") return error.code
  return error instanceof Error ? error.message : String(error)
}

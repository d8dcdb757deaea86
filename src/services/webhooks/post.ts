/**
 * One POST to a receiver over node:http(s), through agents whose sockets connect via the destination check (the
 * `lookup` of `Destinations.ts`). Connections are kept alive and reused: a pooled socket stays connected to the
 * address that was checked when it was opened, so reuse cannot reach another one. Redirects are not followed
 * (node:http never does). Only the status matters: the answer's body is read and dropped so the socket can be
 * reused, and a receiver that sends more than MAX_BODY has its connection closed.
 */
import * as http from "node:http"
import * as https from "node:https"
import type { LookupFunction } from "node:net"
import { VERSION } from "../../version.js"

const MAX_BODY = 64 * 1024

export interface Agents {
  readonly http: http.Agent
  readonly https: https.Agent
}

/**
 * An idle connection is closed after IDLE_MILLIS, before common servers close theirs (Node's after 5 s): a request
 * sent on a connection the receiver is closing fails, and would count against the webhook.
 */
const IDLE_MILLIS = 4000

export const makeAgents = (lookup: LookupFunction): Agents => ({
  http: new http.Agent({ keepAlive: true, lookup, timeout: IDLE_MILLIS }),
  https: new https.Agent({ keepAlive: true, lookup, timeout: IDLE_MILLIS })
})

export const post = (
  url: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  agents: Agents,
  signal: AbortSignal
): Promise<number> =>
  new Promise((resolve, reject) => {
    const target = new URL(url)
    const secure = target.protocol === "https:"
    const request = (secure ? https : http).request(target, {
      method: "POST",
      headers: { "user-agent": `gloss/${VERSION}`, ...headers, "content-length": String(Buffer.byteLength(body)) },
      agent: secure ? agents.https : agents.http,
      signal
    }, (response) => {
      resolve(response.statusCode ?? 0)
      let read = 0
      response.on("data", (chunk: Buffer) => {
        read += chunk.length
        if (read > MAX_BODY) response.destroy()
      })
      response.on("error", () => undefined)
    })
    request.on("error", reject)
    request.end(body)
  })

/** What went wrong, in a word where there is one: `ECONNREFUSED`, `ENOTFOUND`, `HPE_INVALID_CONSTANT`… */
export const errorCode = (error: unknown): string => {
  if (typeof error === "object" && error !== null && "code" in error && typeof error.code === "string") return error.code
  return error instanceof Error ? error.message : String(error)
}

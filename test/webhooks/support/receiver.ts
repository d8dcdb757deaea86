/**
 * A webhook receiver on loopback (node:http) that verifies every delivery with the `standardwebhooks` library, as
 * a real consumer would, and can misbehave on demand: answer an HTTP status, hang, hold a request until released,
 * answer bytes that are not HTTP, or go down (connection refused) and come back on the same port.
 */
import * as http from "node:http"
import type { Socket } from "node:net"
import { Effect } from "effect"
import { Webhook } from "standardwebhooks"

export interface Delivery {
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly messageId: string
  /** The parsed envelope, present only when the signature verified. */
  readonly event: Envelope | undefined
  readonly verifyError: string | undefined
}

export interface Envelope {
  readonly type: string
  readonly version: number
  readonly timestamp: string
  readonly data: Record<string, unknown>
}

export type Mode =
  | { readonly _tag: "status"; readonly status: number; readonly body?: string }
  | { readonly _tag: "hang" }
  | { readonly _tag: "hold" }
  | { readonly _tag: "garbage" }

export const ok: Mode = { _tag: "status", status: 200 }

export class Receiver {
  readonly deliveries: Array<Delivery> = []
  private readonly secrets = new Map<string, string>()
  private readonly modes = new Map<string, Mode>()
  private readonly held: Array<http.ServerResponse> = []
  private readonly sockets = new Set<Socket>()
  private server: http.Server | undefined
  port = 0

  /** The URL a webhook should post to; each test uses its own path. */
  url(path: string): string {
    return `http://127.0.0.1:${this.port}/${path}`
  }

  /** The secret the webhook at `path` signs with (from the API's answer). */
  trust(path: string, secret: string): void {
    this.secrets.set(path, secret)
  }

  setMode(path: string, mode: Mode): void {
    this.modes.set(path, mode)
  }

  /** Answers every held request with 200. */
  release(): void {
    for (const response of this.held.splice(0)) response.writeHead(200).end("ok")
  }

  at(path: string): ReadonlyArray<Delivery> {
    return this.deliveries.filter((delivery) => delivery.path === path)
  }

  async up(port = 0): Promise<void> {
    const server = http.createServer((request, response) => this.handle(request, response))
    server.on("connection", (socket) => {
      this.sockets.add(socket)
      socket.once("close", () => this.sockets.delete(socket))
    })
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))
    const address = server.address()
    this.port = typeof address === "object" && address !== null ? address.port : port
    this.server = server
  }

  /** Stops listening and drops every connection: senders get "connection refused" until `up()`. */
  async down(): Promise<void> {
    const server = this.server
    this.server = undefined
    this.held.splice(0)
    for (const socket of this.sockets) socket.destroy()
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()))
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const path = (request.url ?? "/").slice(1)
      const body = Buffer.concat(chunks).toString("utf8")
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers[name] = value
      const secret = this.secrets.get(path)
      let event: Envelope | undefined
      let verifyError: string | undefined
      try {
        if (secret === undefined) throw new Error(`no secret for /${path}`)
        // Throws unless the three headers are there, the timestamp is recent and a v1 signature matches.
        event = new Webhook(secret).verify(body, headers) as Envelope // the library returns the parsed JSON as unknown
      } catch (error) {
        verifyError = error instanceof Error ? error.message : String(error)
      }
      this.deliveries.push({ path, headers, body, messageId: headers["webhook-id"] ?? "", event, verifyError })
      const mode = this.modes.get(path) ?? ok
      switch (mode._tag) {
        case "status":
          response.writeHead(mode.status, { "content-type": "text/plain" }).end(mode.body ?? "")
          return
        case "hang":
          return
        case "hold":
          this.held.push(response)
          return
        case "garbage":
          request.socket.end("this is not HTTP at all\r\n\r\n")
          return
      }
    })
  }
}

/** A receiver listening for the scope's lifetime. */
export const receiver = Effect.acquireRelease(
  Effect.promise(async () => {
    const r = new Receiver()
    await r.up()
    return r
  }),
  (r) => Effect.promise(() => r.down())
)

/** Deliveries with distinct `webhook-id`s (receivers de-duplicate by it; delivery is at least once). */
export const distinct = (deliveries: ReadonlyArray<Delivery>): ReadonlyArray<Delivery> => {
  const seen = new Set<string>()
  return deliveries.filter((delivery) => !seen.has(delivery.messageId) && seen.add(delivery.messageId) !== undefined)
}

/**
 * The Node server Gloss listens with, on a raw socket: every request it accepts gets an HTTP answer — 414 or 431
 * for a request line or headers over the limit (Node's own handling destroyed the socket, which a client still
 * sending saw as a reset), 400 for what is not HTTP, 503 while the app is not attached — and slow clients are
 * bounded by the timeouts it is created with.
 */
import type { AddressInfo } from "node:net"
import * as net from "node:net"
import type { Server, ServerResponse } from "node:http"
import { afterEach, describe, expect, it } from "vitest"
import {
  createStoppableServer,
  HEADERS_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  MAX_HEADER_SIZE,
  REQUEST_TIMEOUT_MS
} from "../../src/http/NodeServer.js"

let server: Server | undefined
afterEach(async () => {
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())))
  server = undefined
})

const listen = async (app?: (response: ServerResponse) => void) => {
  server = createStoppableServer()
  if (app !== undefined) server.on("request", (_request, response) => app(response))
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve))
  return (server.address() as AddressInfo).port
}

/** Sends `raw` and reads until the server closes: the bytes it answered, or the socket error it ended with. */
const exchange = (port: number, raw: string) =>
  new Promise<{ readonly answer: string; readonly error?: string }>((resolve) => {
    const socket = net.connect(port, "127.0.0.1")
    let answer = ""
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")))
    socket.on("error", (error: NodeJS.ErrnoException) => resolve({ answer, error: error.code ?? error.message }))
    socket.on("close", () => resolve({ answer }))
    socket.end(raw)
  })

const ok = (response: ServerResponse) => response.writeHead(200).end("ok")

describe("the Node server's limits", () => {
  it("a URL longer than the limit is answered 414 with a JSON reason, not a reset", async () => {
    const port = await listen(ok)
    const { answer, error } = await exchange(port, `GET /api/v1/status?q=${"a".repeat(MAX_HEADER_SIZE + 4000)} HTTP/1.1\r\nhost: x\r\n\r\n`)
    expect(error).toBeUndefined()
    expect(answer).toMatch(/^HTTP\/1\.1 414 URI Too Long\r\n/)
    expect(answer).toContain(`{"detail":"The URL is longer than ${MAX_HEADER_SIZE} bytes"}`)
  })

  it("headers over the limit are answered 431", async () => {
    const port = await listen(ok)
    const { answer, error } = await exchange(port, `GET / HTTP/1.1\r\nhost: x\r\nx-big: ${"b".repeat(MAX_HEADER_SIZE + 4000)}\r\n\r\n`)
    expect(error).toBeUndefined()
    expect(answer).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/)
  })

  it("what is not HTTP is answered 400", async () => {
    const port = await listen(ok)
    expect((await exchange(port, "HELLO\r\n\r\n")).answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
  })

  it("a request that arrives before the app is attached is answered 503, and answered by the app once it is", async () => {
    const port = await listen()
    expect((await exchange(port, "GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")).answer).toMatch(/^HTTP\/1\.1 503 /)
    server!.on("request", (_request, response) => ok(response))
    expect((await exchange(port, "GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")).answer).toMatch(/^HTTP\/1\.1 200 /)
  })

  it("is created with bounded header and request timeouts", async () => {
    await listen(ok)
    expect(server!.headersTimeout).toBe(HEADERS_TIMEOUT_MS)
    expect(HEADERS_TIMEOUT_MS).toBeLessThan(60_000)
    expect(server!.requestTimeout).toBe(REQUEST_TIMEOUT_MS)
  })

  it("keeps an idle connection past the 5 s after which httpx and Node's fetch give theirs up, and says for how long", async () => {
    const port = await listen(ok)
    const socket = net.connect(port, "127.0.0.1")
    let answer = ""
    let closed = false
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")))
    socket.on("close", () => (closed = true))
    const answered = async (count: number) => {
      while ((answer.match(/HTTP\/1\.1 200/g) ?? []).length < count && !closed) await new Promise((r) => setTimeout(r, 20))
    }
    try {
      socket.write("GET / HTTP/1.1\r\nhost: x\r\n\r\n")
      await answered(1)
      expect(answer.toLowerCase()).toContain(`keep-alive: timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`)
      // Past Node's default keep-alive timeout (5 s), the connection still takes a request.
      await new Promise((r) => setTimeout(r, 5_500))
      expect(closed).toBe(false)
      socket.write("GET / HTTP/1.1\r\nhost: x\r\n\r\n")
      await answered(2)
      expect((answer.match(/HTTP\/1\.1 200/g) ?? []).length).toBe(2)
    } finally {
      socket.destroy()
    }
  }, 30_000)
})

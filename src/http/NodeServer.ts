/**
 * The Node HTTP server Gloss listens with: `node:http`'s, with a bounded shutdown, limits that keep slow or
 * oversized clients from holding sockets, and an answer for every request it accepts.
 *
 * On SIGTERM @effect/platform closes the server and waits until every connection has ended. A request whose body is
 * still arriving when its handler is interrupted is never read again, so its connection never ends and the process
 * never exits (found by the scale benchmark: a client that kept uploading after a shutdown began). Idle keep-alive
 * connections are closed at once; the rest get `SHUTDOWN_GRACE_MS` to finish, then are closed.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Duplex } from "node:stream"

export const SHUTDOWN_GRACE_MS = 10_000

/**
 * A client has this long to send its request line and headers (Node's default is 60 s, so a few hundred clients that
 * dribble headers could hold as many sockets for a minute each).
 */
export const HEADERS_TIMEOUT_MS = 10_000
/** A whole request, body included, within Node's own default of five minutes: room for large uploads. */
export const REQUEST_TIMEOUT_MS = 300_000
/** How often Node looks for requests past those limits (its default, 30 s, would let one live 40 s). */
const TIMEOUT_CHECK_MS = 1_000
/**
 * How long an idle kept-alive connection stays open. Node's default, 5 s, equals the idle time after which the Python
 * SDK's httpx drops a connection and is one second above Node's own fetch: a client that sends on a connection the
 * server is closing that same moment gets no answer and fails the call ("server disconnected", "other side closed").
 * Longer than every common client's idle limit, the client is always the side that closes.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 75_000
/** Request line and headers together (Node's default): beyond it the answer is 414 or 431. */
export const MAX_HEADER_SIZE = 16_384

const plain = (status: string, detail: string) => {
  const body = JSON.stringify({ detail })
  return `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
    `connection: close\r\n\r\n${body}`
}

/**
 * Node answers a request it cannot parse and then destroys the socket. A client still sending (the rest of an
 * oversized header) then gets a TCP reset instead of the answer, so here the answer is written, the socket is
 * half-closed and what the client still sends is read and dropped until it closes too (bounded by a timer).
 */
const answerClientError = (error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex) => {
  if (!socket.writable) return socket.destroy()
  const response = (() => {
    switch (error.code) {
      case "HPE_HEADER_OVERFLOW": {
        // The request line counts towards the limit too: when it alone fills it, the URL is what is too long.
        const packet = error.rawPacket?.toString("latin1") ?? ""
        const lineEnd = packet.indexOf("\r\n")
        return /^[A-Z]+ /.test(packet) && (lineEnd === -1 || lineEnd >= MAX_HEADER_SIZE)
          ? plain("414 URI Too Long", `The URL is longer than ${MAX_HEADER_SIZE} bytes`)
          : plain("431 Request Header Fields Too Large", `The request line and headers exceed ${MAX_HEADER_SIZE} bytes`)
      }
      case "ERR_HTTP_REQUEST_TIMEOUT":
        return plain("408 Request Timeout", "The request was not received in time")
      default:
        return plain("400 Bad Request", "The request is not valid HTTP")
    }
  })()
  socket.on("error", () => undefined)
  socket.end(response)
  socket.resume()
  setTimeout(() => socket.destroy(), 2_000).unref()
}

/**
 * The app's handler is attached once the server's layers are built, and removed when it stops: a request that
 * arrives while the app is not attached (a moment at start-up, during a shutdown) is answered 503 rather than left
 * without an answer.
 */
const unavailable = (server: Server) => (_request: IncomingMessage, response: ServerResponse) => {
  if (server.listenerCount("request") > 1) return
  response.writeHead(503, { "content-type": "application/json", "retry-after": "1", connection: "close" })
  response.end(JSON.stringify({ detail: "Gloss is starting or stopping: try again in a moment" }))
}

export const createStoppableServer = (): Server => {
  const server = createServer({
    headersTimeout: HEADERS_TIMEOUT_MS,
    requestTimeout: REQUEST_TIMEOUT_MS,
    connectionsCheckingInterval: TIMEOUT_CHECK_MS,
    maxHeaderSize: MAX_HEADER_SIZE
  })
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS
  server.on("clientError", answerClientError)
  server.on("request", unavailable(server))
  const close = server.close.bind(server)
  server.close = (callback?: (error?: Error) => void) => {
    close(callback)
    server.closeIdleConnections()
    setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref()
    return server
  }
  return server
}

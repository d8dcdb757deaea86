/**
 * The Node HTTP server Gloss listens with: `node:http`'s, with a bounded shutdown.
 *
 * On SIGTERM @effect/platform closes the server and waits until every connection has ended. A request whose body is
 * still arriving when its handler is interrupted is never read again, so its connection never ends and the process
 * never exits (found by the scale benchmark: a client that kept uploading after a shutdown began). Idle keep-alive
 * connections are closed at once; the rest get `SHUTDOWN_GRACE_MS` to finish, then are closed.
 */
import { createServer, type Server } from "node:http"

export const SHUTDOWN_GRACE_MS = 10_000

export const createStoppableServer = (): Server => {
  const server = createServer()
  const close = server.close.bind(server)
  server.close = (callback?: (error?: Error) => void) => {
    close(callback)
    server.closeIdleConnections()
    setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref()
    return server
  }
  return server
}

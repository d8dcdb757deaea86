/** The machine's ceiling: Node's http module answering the same JSON that `GET /api/v1/me` returns. */
import { createServer } from "node:http"

const body = JSON.stringify({
  id: "3f1d2c8e-4c5b-4f7a-9d2e-1a2b3c4d5e6f",
  first_name: "bench",
  last_name: null,
  username: "bench",
  role: "owner",
  api_key: "bench.api.key.0123456789abcdefghijklmnopqrstuvwxyz",
  inserted_at: "2026-11-22T02:37:02.123",
  updated_at: "2026-11-22T02:37:02.123"
})

const server = createServer((request, response) => {
  if (request.headers["x-gloss-api-key"] === undefined) {
    response.writeHead(401).end()
    return
  }
  response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
  response.end(body)
})
server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  if (address !== null && typeof address === "object") console.log(`Listening on http://127.0.0.1:${address.port}`)
})
process.on("SIGTERM", () => server.close(() => process.exit(0)))

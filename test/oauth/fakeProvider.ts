/**
 * A stand-in for the Hugging Face OAuth server on loopback: `POST /oauth/token` trades a known code for an access
 * token (checking the client's credentials and the redirect URI), `GET /oauth/userinfo` returns that token's
 * profile. `issue` registers a code for a profile, as a user signing in at the provider would; a browser sent to
 * `GET /oauth/authorize` is approved at once as the profile given to `approveAs`.
 */
import { createServer, type IncomingMessage } from "node:http"

export interface FakeProvider {
  readonly url: string
  /** A fresh authorization code that signs in as `profile`. */
  readonly issue: (profile: Record<string, unknown>, redirectUri: string) => string
  /** Who a browser visiting `/oauth/authorize` signs in as (it is sent straight back with a code). */
  readonly approveAs: (profile: Record<string, unknown>) => void
  /** Token requests received: what the server sent. */
  readonly tokenRequests: Array<{ readonly authorization: string | undefined; readonly form: URLSearchParams }>
  readonly close: () => Promise<void>
}

const body = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ""
    request.on("data", (chunk: Buffer) => (text += chunk.toString()))
    request.on("end", () => resolve(text))
  })

export const CLIENT_ID = "fake-client-id"
export const CLIENT_SECRET = "fake-client-secret"

export const startFakeProvider = () =>
  new Promise<FakeProvider>((resolve) => {
    const codes = new Map<string, { profile: Record<string, unknown>; redirectUri: string }>()
    const tokens = new Map<string, Record<string, unknown>>()
    const tokenRequests: FakeProvider["tokenRequests"] = []
    let next = 0
    let approved: Record<string, unknown> = {}
    const server = createServer(async (request, response) => {
      const json = (status: number, value: unknown) =>
        response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value))
      const url = new URL(request.url ?? "/", "http://fake")
      if (request.method === "POST" && url.pathname === "/oauth/token") {
        const form = new URLSearchParams(await body(request))
        tokenRequests.push({ authorization: request.headers.authorization, form })
        const expected = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`
        const grant = codes.get(form.get("code") ?? "")
        if (request.headers.authorization !== expected) return json(401, { error: "invalid_client" })
        if (grant === undefined || grant.redirectUri !== form.get("redirect_uri")) return json(400, { error: "invalid_grant" })
        codes.delete(form.get("code") ?? "")
        const token = `access-${++next}`
        tokens.set(token, grant.profile)
        return json(200, { access_token: token, token_type: "bearer", expires_in: 3600 })
      }
      if (request.method === "GET" && url.pathname === "/oauth/authorize") {
        const back = new URL(url.searchParams.get("redirect_uri") ?? "")
        const code = `code-${++next}`
        codes.set(code, { profile: approved, redirectUri: back.href })
        back.searchParams.set("code", code)
        back.searchParams.set("state", url.searchParams.get("state") ?? "")
        return response.writeHead(302, { location: back.href }).end()
      }
      if (request.method === "GET" && url.pathname === "/oauth/userinfo") {
        const profile = tokens.get((request.headers.authorization ?? "").replace(/^Bearer /, ""))
        return profile === undefined ? json(401, { error: "invalid_token" }) : json(200, profile)
      }
      json(404, { error: "not found" })
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      resolve({
        url: `http://127.0.0.1:${port}`,
        issue: (profile, redirectUri) => {
          const code = `code-${++next}`
          codes.set(code, { profile, redirectUri })
          return code
        },
        approveAs: (profile) => {
          approved = profile
        },
        tokenRequests,
        close: () => new Promise((done) => server.close(() => done()))
      })
    })
  })

/**
 * OAuth2 sign-in end to end, with Argilla's endpoints and configuration file, against a fake Hugging Face on loopback:
 * the redirect with its state cookie, the callback's code traded for a profile, the user created on first sign-in in
 * the allowed workspaces, a JWT the API accepts, and every way the callback can be wrong.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { unique, workspace } from "../support/fixtures.js"
import { OWNER, raw, TestServerLive } from "../support/server.js"
import { CLIENT_ID, CLIENT_SECRET, type FakeProvider, startFakeProvider } from "./fakeProvider.js"

const provider = await startFakeProvider()

const oauthFile = (yaml: string) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gloss-oauth-")), ".oauth.yml")
  fs.writeFileSync(file, yaml)
  return file
}

const PROVIDERS = "/api/v1/oauth2/providers"

/** The browser's side of a sign-in: follow the redirect, "log in" at the provider, hand the code back. */
const startSignIn = (headers: Record<string, string> = {}, query = "") =>
  Effect.gen(function*() {
    const started = yield* raw(`${PROVIDERS}/huggingface/authentication${query}`, { redirect: "manual", headers })
    expect(started.status).toBe(303)
    const location = new URL(started.headers.get("location") ?? "")
    const cookie = started.headers.getSetCookie()[0] ?? ""
    return { location, cookie, state: location.searchParams.get("state") ?? "" }
  })

const finishSignIn = (code: string, state: string, cookie: string) =>
  raw(`${PROVIDERS}/huggingface/access-token?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`, {
    headers: cookie === "" ? {} : { cookie: cookie.split(";")[0] ?? "" }
  })

const signIn = (fake: FakeProvider, profile: Record<string, unknown>) =>
  Effect.gen(function*() {
    const { cookie, location, state } = yield* startSignIn()
    const code = fake.issue(profile, location.searchParams.get("redirect_uri") ?? "")
    return yield* finishSignIn(code, state, cookie)
  })

const asBearer = (token: string, p: string) => raw(p, { headers: { authorization: `Bearer ${token}` } })

const ownerGet = (p: string, method = "GET") => raw(p, { method, headers: { "x-gloss-api-key": OWNER.apiKey } })

describe("OAuth2 sign-in", () => {
  const env = {
    HF_ENDPOINT: provider.url,
    GLOSS_AUTH_OAUTH_CFG: oauthFile([
      "providers:",
      `  - name: huggingface`,
      `    client_id: ${CLIENT_ID}`,
      "allowed_workspaces:",
      "  - name: annotators",
      "  - name: community",
      "allow_http_redirect: true"
    ].join("\n")),
    // The secret comes from the environment, as on a Space.
    OAUTH2_HUGGINGFACE_CLIENT_SECRET: CLIENT_SECRET
  }

  layer(TestServerLive("sqlite", env), { excludeTestServices: true })("configured", (it) => {
    it.effect("lists the provider; the allowed workspaces exist from the start", () =>
      Effect.gen(function*() {
        expect((yield* raw(PROVIDERS)).body).toEqual({ items: [{ name: "huggingface" }] })
        const names = ((yield* ownerGet("/api/v1/me/workspaces")).body as { items: Array<{ name: string }> }).items.map((w) => w.name)
        expect(names).toEqual(expect.arrayContaining(["annotators", "community"]))
      }))

    it.effect("redirects to the provider with client id, callback, scope and state, and sets the state cookie", () =>
      Effect.gen(function*() {
        const { cookie, location, state } = yield* startSignIn({}, "?prompt=consent&state=ignored")
        expect(`${location.origin}${location.pathname}`).toBe(`${provider.url}/oauth/authorize`)
        expect(location.searchParams.get("response_type")).toBe("code")
        expect(location.searchParams.get("client_id")).toBe(CLIENT_ID)
        expect(location.searchParams.get("scope")).toBe("openid profile")
        expect(location.searchParams.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/huggingface\/callback$/)
        // Other parameters pass through; ours cannot be overridden.
        expect(location.searchParams.get("prompt")).toBe("consent")
        expect(state).toMatch(/^[\w-]{32}$/)
        expect(cookie).toContain(`huggingface_oauth2_state=${state}`)
        expect(cookie).toMatch(/HttpOnly/i)
        expect(cookie).toMatch(/Secure/i)
        expect(cookie).toMatch(/SameSite=None/i)
        expect(cookie).toMatch(/Max-Age=90/i)
      }))

    it.effect("a first sign-in creates an annotator in the allowed workspaces and returns a JWT the API accepts", () =>
      Effect.gen(function*() {
        const username = unique("hf-user")
        const signedIn = yield* signIn(provider, { sub: "1", preferred_username: username, name: "Ada Lovelace" })
        expect(signedIn.status).toBe(200)
        const token = signedIn.body as { access_token: string; token_type: string }
        expect(token.token_type).toBe("bearer")
        const me = (yield* asBearer(token.access_token, "/api/v1/me")).body as Record<string, unknown>
        expect(me).toMatchObject({ username, first_name: "Ada Lovelace", role: "annotator" })
        const mine = (yield* asBearer(token.access_token, "/api/v1/me/workspaces")).body as { items: Array<{ name: string }> }
        expect(mine.items.map((w) => w.name).sort()).toEqual(["annotators", "community"])
        // The server authenticated to the provider with the client credentials and the same redirect URI.
        const sent = provider.tokenRequests.at(-1)
        expect(sent?.form.get("grant_type")).toBe("authorization_code")
        expect(sent?.form.get("redirect_uri")).toMatch(/\/oauth\/huggingface\/callback$/)
      }))

    it.effect("a returning user gets a token for the same account, not a second one", () =>
      Effect.gen(function*() {
        const username = unique("hf-back")
        const first = (yield* signIn(provider, { preferred_username: username })).body as { access_token: string }
        const again = yield* signIn(provider, { preferred_username: username, name: "New Name" })
        expect(again.status).toBe(200)
        const meFirst = (yield* asBearer(first.access_token, "/api/v1/me")).body as { id: string; first_name: string }
        const meAgain = (yield* asBearer((again.body as { access_token: string }).access_token, "/api/v1/me")).body as { id: string }
        expect(meAgain.id).toBe(meFirst.id)
        expect(meFirst.first_name).toBe(username)
        const users = (yield* ownerGet("/api/v1/users")).body as { items: Array<{ username: string }> }
        expect(users.items.filter((u) => u.username === username)).toHaveLength(1)
      }))

    it.effect("a state that does not match the cookie, or is missing, or no code: 422 and nobody signed in", () =>
      Effect.gen(function*() {
        const username = unique("hf-forged")
        const { cookie, location, state } = yield* startSignIn()
        const code = provider.issue({ preferred_username: username }, location.searchParams.get("redirect_uri") ?? "")
        const forged = yield* finishSignIn(code, `${state}x`, cookie)
        expect(forged.status).toBe(422)
        expect(forged.body).toEqual({ detail: "'state' parameter does not match" })
        expect((yield* finishSignIn(code, state, "")).body).toEqual({ detail: "'state' parameter does not match" })
        const noState = yield* raw(`${PROVIDERS}/huggingface/access-token?code=${code}`, { headers: { cookie: cookie.split(";")[0] ?? "" } })
        expect(noState).toMatchObject({ status: 422, body: { detail: "'state' parameter was not found in callback request" } })
        const noCode = yield* raw(`${PROVIDERS}/huggingface/access-token?state=${state}`, { headers: { cookie: cookie.split(";")[0] ?? "" } })
        expect(noCode).toMatchObject({ status: 422, body: { detail: "'code' parameter was not found in callback request" } })
        const users = (yield* ownerGet("/api/v1/users")).body as { items: Array<{ username: string }> }
        expect(users.items.some((u) => u.username === username)).toBe(false)
      }))

    it.effect("a code the provider refuses is 401; an unknown provider is 404", () =>
      Effect.gen(function*() {
        const { cookie, state } = yield* startSignIn()
        const refused = yield* finishSignIn("never-issued", state, cookie)
        expect(refused.status).toBe(401)
        expect(refused.body).toEqual({
          detail: {
            code: "argilla.api.errors::UnauthorizedError",
            params: { detail: "OAuth provider 'huggingface' refused the sign-in (400)" }
          }
        })
        const unknown = yield* raw(`${PROVIDERS}/github/authentication`, { redirect: "manual" })
        expect(unknown).toMatchObject({ status: 404, body: { detail: "OAuth Provider 'github' not found" } })
        expect((yield* raw(`${PROVIDERS}/github/access-token?code=a&state=b`)).status).toBe(404)
      }))

    it.effect("an OAuth user reaches only the allowed workspaces; a vanished one refuses new users (422)", () =>
      Effect.gen(function*() {
        const other = yield* workspace()
        const signedIn = (yield* signIn(provider, { preferred_username: unique("hf-scope") })).body as { access_token: string }
        expect((yield* asBearer(signedIn.access_token, `/api/v1/workspaces/${other.id}`)).status).toBe(403)

        const all = (yield* ownerGet("/api/v1/me/workspaces")).body as { items: Array<{ id: string; name: string }> }
        const community = all.items.find((w) => w.name === "community")
        expect((yield* ownerGet(`/api/v1/workspaces/${community?.id}`, "DELETE")).status).toBe(200)
        const username = unique("hf-late")
        const refused = yield* signIn(provider, { preferred_username: username })
        expect(refused).toMatchObject({ status: 422, body: { detail: "Workspace 'community' not found" } })
        const users = (yield* ownerGet("/api/v1/users")).body as { items: Array<{ username: string }> }
        expect(users.items.some((u) => u.username === username)).toBe(false)
      }))

    it.effect("the owner named by USERNAME signs in to the existing owner account", () =>
      Effect.gen(function*() {
        const signedIn = (yield* signIn(provider, { preferred_username: OWNER.username })).body as { access_token: string }
        const me = (yield* asBearer(signedIn.access_token, "/api/v1/me")).body as { role: string; api_key: string }
        expect(me).toMatchObject({ role: "owner", api_key: OWNER.apiKey })
      }))
  })

  // A personal Space: no USERNAME, so the Space's author is the owner; no allow_http_redirect, so the callback is
  // https (the Space's proxy terminates TLS), on the host the browser used.
  const spaceEnv = {
    // No owner variables at all (the test server's defaults are cleared); tests act through OAuth users.
    USERNAME: "",
    PASSWORD: "",
    API_KEY: "",
    HF_ENDPOINT: provider.url,
    SPACE_ID: "ada/gloss",
    SPACE_AUTHOR_NAME: "ada",
    OAUTH_CLIENT_ID: CLIENT_ID,
    OAUTH_CLIENT_SECRET: CLIENT_SECRET,
    GLOSS_AUTH_OAUTH_CFG: oauthFile("providers:\n  - name: huggingface\nallowed_workspaces:\n  - name: gloss\n")
  }
  layer(
    TestServerLive("sqlite", spaceEnv),
    { excludeTestServices: true }
  )("on a Space", (it) => {
    it.effect("the Space's author becomes an owner, anyone else an annotator; the callback is https on the public host", () =>
      Effect.gen(function*() {
        const { location } = yield* startSignIn({ "x-forwarded-proto": "https", "x-forwarded-host": "ada-gloss.hf.space" })
        expect(location.searchParams.get("redirect_uri")).toBe("https://ada-gloss.hf.space/oauth/huggingface/callback")
        const plain = yield* startSignIn()
        expect(plain.location.searchParams.get("redirect_uri")).toMatch(/^https:\/\/127\.0\.0\.1:\d+\//)

        const author = (yield* signIn(provider, { preferred_username: "ada" })).body as { access_token: string }
        expect((yield* asBearer(author.access_token, "/api/v1/me")).body).toMatchObject({ username: "ada", role: "owner" })
        const visitor = (yield* signIn(provider, { preferred_username: unique("visitor") })).body as { access_token: string }
        expect((yield* asBearer(visitor.access_token, "/api/v1/me")).body).toMatchObject({ role: "annotator" })
      }))
  })

  layer(TestServerLive("sqlite", { HF_ENDPOINT: provider.url, GLOSS_AUTH_OAUTH_CFG: "/nonexistent/.oauth.yml" }), {
    excludeTestServices: true
  })("not configured", (it) => {
    it.effect("no providers, and the endpoints answer 404", () =>
      Effect.gen(function*() {
        expect((yield* raw(PROVIDERS)).body).toEqual({ items: [] })
        const start = yield* raw(`${PROVIDERS}/huggingface/authentication`, { redirect: "manual" })
        expect(start).toMatchObject({ status: 404, body: { detail: "OAuth Provider 'huggingface' not found" } })
      }))
  })
})

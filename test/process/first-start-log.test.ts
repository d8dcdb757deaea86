/**
 * A first start as an operator sees it, as a process: the log's one line with the set-up link (the same token
 * after a restart), the set-up done with that token from a remote address, an invitation made, looked up and
 * accepted; and afterwards neither the invitation's token nor any password in the log, the set-up token only in
 * its own line, and no link on the next start. Then set-ups sent at once to two servers on one database (SQLite
 * file or PostgreSQL): one owner.
 */
import { afterAll, describe, expect, it } from "vitest"
import { Effect, Exit, Scope } from "effect"
import { FIRST_OWNER_HINT } from "../../src/Bootstrap.js"
import { dialects, freshDatabase } from "../support/databases.js"
import { type GlossProcess, listening, spawnGloss, stop, waitFor } from "../support/processes.js"

const BASE = {
  GLOSS_HOST: "127.0.0.1",
  GLOSS_PORT: "0",
  GLOSS_LOG_LEVEL: "info",
  HF_HUB_DISABLE_TELEMETRY: "1",
  GLOSS_AUTH_SECRET_KEY: "first-start-secret-with-enough-entropy-0123",
  GLOSS_TRUST_PROXY: "true",
  GLOSS_JOB_WORKERS: "0"
}
const LINK = /No owner exists yet\. Open http:\/\/127\.0\.0\.1:0\/setup\?token=([A-Za-z0-9_-]{32}) to create one/
const REMOTE = { "x-forwarded-for": "203.0.113.7" }
const OWNER_PASSWORD = "owner-password-in-no-log"
const INVITED_PASSWORD = "invited-password-in-no-log"

const scope = Effect.runSync(Scope.make())
const running: Array<GlossProcess> = []
afterAll(async () => {
  await Promise.all(running.map((proc) => stop(proc, "SIGKILL")))
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

const start = (env: Record<string, string>) => {
  const proc = spawnGloss(["server"], { ...BASE, ...env })
  running.push(proc)
  return proc
}

const json = async (url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) => {
  const response = await fetch(url, {
    method: init.method ?? "GET",
    headers: { ...init.headers, ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
  })
  return { status: response.status, body: await response.json() as Record<string, unknown> }
}

const occurrences = (text: string, part: string) => text.split(part).length - 1

describe("first start", () => {
  it("logs the set-up link, and no token or password the set-up and an invitation carried", async () => {
    const db = await Effect.runPromise(Scope.extend(freshDatabase("sqlite"), scope))

    const first = start(db.env)
    await listening(first)
    await waitFor(first, LINK)
    const token = LINK.exec(first.output())?.[1] ?? ""
    expect(first.output()).toContain(FIRST_OWNER_HINT)
    expect(await stop(first)).toBe(0)

    const server = start(db.env)
    const url = await listening(server)
    await waitFor(server, LINK)
    // The same token after a restart: derived from the secret, not drawn at random.
    expect(LINK.exec(server.output())?.[1]).toBe(token)

    expect((await json(`${url}/api/gloss/setup`, { headers: REMOTE })).body).toEqual({ needed: true, token_required: true })
    const refused = await json(`${url}/api/gloss/setup`, {
      method: "POST",
      headers: REMOTE,
      body: { username: "lead", password: OWNER_PASSWORD, workspace: "team" }
    })
    expect(refused.status).toBe(403)
    const setUp = await json(`${url}/api/gloss/setup`, {
      method: "POST",
      headers: REMOTE,
      body: { token, username: "lead", password: OWNER_PASSWORD, workspace: "team" }
    })
    expect(setUp.status).toBe(201)
    const bearer = { authorization: `Bearer ${String(setUp.body.access_token)}` }
    // The set-up page itself, its token in the query, as a browser opens it.
    await fetch(`${url}/setup?token=${token}`)

    const me = await json(`${url}/api/v1/me/workspaces`, { headers: bearer })
    const workspaces = me.body.items as ReadonlyArray<{ id: string; name: string }>
    expect(workspaces.map((w) => w.name)).toEqual(["team"])
    const invitation = await json(`${url}/api/gloss/invitations`, {
      method: "POST",
      headers: bearer,
      body: { role: "annotator", workspace_ids: [workspaces[0]?.id] }
    })
    expect(invitation.status).toBe(201)
    const invitationToken = String(invitation.body.token)
    expect((await json(`${url}/api/gloss/invitations/lookup?token=${invitationToken}`)).status).toBe(200)
    const accepted = await json(`${url}/api/gloss/invitations/accept`, {
      method: "POST",
      body: { token: invitationToken, username: "annotator-1", password: INVITED_PASSWORD, first_name: "Ann" }
    })
    expect(accepted.status).toBe(201)
    expect((await json(`${url}/api/gloss/invitations/lookup?token=${invitationToken}`)).status).toBe(404)
    expect(await stop(server)).toBe(0)

    const log = server.output()
    // The requests were logged, their query strings were not.
    expect(log).toMatch(/GET \/api\/gloss\/invitations\/lookup 200/)
    expect(log).toMatch(/POST \/api\/gloss\/setup 201/)
    expect(occurrences(log, invitationToken)).toBe(0)
    expect(occurrences(log, token)).toBe(1)
    expect(log.split("\n").filter((line) => line.includes(token))[0]).toMatch(LINK)
    for (const secret of [OWNER_PASSWORD, INVITED_PASSWORD, String(setUp.body.access_token), String(accepted.body.access_token)]) {
      expect(occurrences(log, secret)).toBe(0)
    }

    // Set up: the next start has no link to show.
    const again = start(db.env)
    await listening(again)
    expect(await stop(again)).toBe(0)
    expect(again.output()).not.toContain(FIRST_OWNER_HINT)
  }, 180_000)
})

describe.each(dialects)("set-ups at once on two servers sharing one %s database", (dialect) => {
  it("ten set-ups spread over both make one owner; the other nine answer 409", async () => {
    const db = await Effect.runPromise(Scope.extend(freshDatabase(dialect), scope))
    const servers = [start(db.env), start(db.env)]
    const urls = await Promise.all(servers.map(listening))
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      json(`${urls[i % 2]}/api/gloss/setup`, {
        method: "POST",
        body: { username: `owner-${i}`, password: OWNER_PASSWORD, workspace: "team" }
      })))
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array.from({ length: 9 }, () => 409)])
    const winner = answers.find((a) => a.status === 201)
    const bearer = { authorization: `Bearer ${String(winner?.body.access_token)}` }
    // Either server knows the one owner (the same secret signs the session on both).
    const users = await json(`${urls[1]}/api/v1/users`, { headers: bearer })
    expect((users.body.items as ReadonlyArray<{ role: string }>).filter((u) => u.role === "owner")).toHaveLength(1)
    expect(await Promise.all(servers.map((server) => stop(server)))).toEqual([0, 0])
  }, 180_000)
})

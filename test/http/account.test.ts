/**
 * Your own password and API key (`PUT /api/gloss/me/password`, `POST /api/gloss/me/api-key`), an owner resetting
 * someone's password with Argilla's `PATCH /api/v1/users/{id}`, and renaming a workspace
 * (`PATCH /api/gloss/workspaces/{id}`).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { WorkspaceId } from "../../src/domain/Ids.js"
import { dialects } from "../support/databases.js"
import { expectFailure } from "../support/expect.js"
import { unique, userWith, workspace } from "../support/fixtures.js"
import { clientFor, clientWith, ownerClient, raw, TestServerLive } from "../support/server.js"

/** The password `userWith` gives its users. */
const PASSWORD = "password-1234"
const LIMITS = { GLOSS_AUTH_SIGNIN_MAX_FAILURES_PER_USER: "3", GLOSS_AUTH_SIGNIN_WINDOW_SECONDS: "60" }

const signIn = (username: string, password: string) =>
  raw("/api/v1/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username, password }).toString()
  })

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect, LIMITS), { excludeTestServices: true, timeout: 60_000 })("account", (it) => {
      it.effect("a user changes their password: the new one signs in, the old one no longer does", () =>
        Effect.gen(function*() {
          const { client, user } = yield* userWith("annotator")
          yield* client.account.changePassword({ payload: { current_password: PASSWORD, new_password: "a-new-password" } })
          expect((yield* signIn(user.username, "a-new-password")).status).toBe(201)
          expect((yield* signIn(user.username, PASSWORD)).status).toBe(401)
          // Through a browser session too.
          const session = (yield* signIn(user.username, "a-new-password")).body as { access_token: string }
          const bearer = yield* clientWith({ authorization: `Bearer ${session.access_token}` })
          yield* bearer.account.changePassword({ payload: { current_password: "a-new-password", new_password: "third-password" } })
          expect((yield* signIn(user.username, "third-password")).status).toBe(201)
        }))

      it.effect("a wrong current password is 403 and counts as a failed sign-in (429 once the limit is used up)", () =>
        Effect.gen(function*() {
          const { client, user } = yield* userWith("annotator")
          const change = (current: string) =>
            client.account.changePassword({ payload: { current_password: current, new_password: "never-set-password" } })
          yield* expectFailure(change("wrong-password"), "Forbidden", "The current password is wrong")
          yield* expectFailure(change("wrong-password"), "Forbidden")
          yield* expectFailure(change("wrong-password"), "Forbidden")
          yield* expectFailure(change("wrong-password"), "SignInLimited")
          yield* expectFailure(change(PASSWORD), "SignInLimited")
          expect((yield* signIn(user.username, PASSWORD)).status).toBe(429)
        }))

      it.effect("the new password must differ from the current one and have 8 characters (422)", () =>
        Effect.gen(function*() {
          const { client, user } = yield* userWith("admin")
          yield* expectFailure(
            client.account.changePassword({ payload: { current_password: PASSWORD, new_password: PASSWORD } }),
            "Unprocessable"
          )
          const short = yield* raw("/api/gloss/me/password", {
            method: "PUT",
            headers: { "content-type": "application/json", "x-gloss-api-key": user.api_key },
            body: JSON.stringify({ current_password: PASSWORD, new_password: "short" })
          })
          expect(short.status).toBe(422)
          const anonymous = yield* raw("/api/gloss/me/password", {
            method: "PUT",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ current_password: PASSWORD, new_password: "long-enough" })
          })
          expect(anonymous.status).toBe(401)
        }))

      it.effect("an owner resets another user's password with PATCH /api/v1/users/{id}", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const { user } = yield* userWith("annotator")
          yield* owner.users.update({ path: { id: user.id }, payload: { password: "reset-by-owner" } })
          expect((yield* signIn(user.username, "reset-by-owner")).status).toBe(201)
          expect((yield* signIn(user.username, PASSWORD)).status).toBe(401)
        }))

      it.effect("a new API key works at once and the old one stops working at once", () =>
        Effect.gen(function*() {
          const { client, user } = yield* userWith("annotator")
          // Used once, so that the credential cache holds the old key.
          expect((yield* client.me.me()).api_key).toBe(user.api_key)
          const { api_key } = yield* client.account.regenerateApiKey()
          expect(api_key).toMatch(/^[A-Za-z0-9_-]{64}$/)
          expect(api_key).not.toBe(user.api_key)
          const renewed = yield* clientFor(api_key)
          expect(yield* renewed.me.me()).toMatchObject({ id: user.id, api_key })
          yield* expectFailure(client.me.me(), "Unauthorized")
          // A browser session shows the new key.
          const session = (yield* signIn(user.username, PASSWORD)).body as { access_token: string }
          expect((yield* (yield* clientWith({ authorization: `Bearer ${session.access_token}` })).me.me()).api_key).toBe(api_key)
        }))

      it.effect("an owner renames a workspace; a taken name is 409, a bad one 422, a missing id 404, others 403", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const [w, taken] = [yield* workspace(), yield* workspace()]
          const name = unique("renamed")
          const renamed = yield* owner.account.renameWorkspace({ path: { id: w.id }, payload: { name } })
          expect(renamed).toMatchObject({ id: w.id, name })
          expect(renamed.updated_at.getTime()).toBeGreaterThanOrEqual(w.updated_at.getTime())
          expect((yield* owner.workspaces.get({ path: { id: w.id } })).name).toBe(name)
          // The same name again is fine: nothing changes.
          yield* owner.account.renameWorkspace({ path: { id: w.id }, payload: { name } })
          yield* expectFailure(
            owner.account.renameWorkspace({ path: { id: w.id }, payload: { name: taken.name } }),
            "Conflict",
            `Workspace name \`${taken.name}\` is not unique`
          )
          const bad = yield* raw(`/api/gloss/workspaces/${w.id}`, {
            method: "PATCH",
            headers: { "content-type": "application/json", "x-gloss-api-key": (yield* userWith("owner")).user.api_key },
            body: JSON.stringify({ name: "Not A Name" })
          })
          expect(bad.status).toBe(422)
          const missing = WorkspaceId.make("00000000-0000-4000-8000-000000000000")
          yield* expectFailure(owner.account.renameWorkspace({ path: { id: missing }, payload: { name: unique("x") } }), "NotFound")
          const { client: admin } = yield* userWith("admin", [w])
          yield* expectFailure(admin.account.renameWorkspace({ path: { id: w.id }, payload: { name: unique("y") } }), "Forbidden")
        }))
    })
  })
}

import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { UserId } from "../../src/domain/Ids.js"
import { dialects } from "../support/databases.js"
import { expectFailure, FORBIDDEN } from "../support/expect.js"
import { unique, userWith, workspace } from "../support/fixtures.js"
import { clientFor, OWNER, ownerClient, raw, TestServerLive } from "../support/server.js"

const MISSING = UserId.make("00000000-0000-4000-8000-000000000000")
const json = (body: unknown, key = OWNER.apiKey) => ({
  method: "POST",
  headers: { "content-type": "application/json", "x-gloss-api-key": key },
  body: JSON.stringify(body)
})

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 60_000 })("users", (it) => {
      it.effect("owner creates a user (201): annotator by default, with a generated API key, listed in order", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const username = unique("ann")
          const created = yield* owner.users.create({ payload: { first_name: "Ann", username, password: "12345678" } })
          expect(created).toMatchObject({ first_name: "Ann", last_name: null, username, role: "annotator" })
          expect(created.api_key).toMatch(/^[A-Za-z0-9_-]{43,}$/)
          const list = yield* owner.users.list()
          expect(list.items[0]?.username).toBe(OWNER.username)
          expect(list.items.map((u) => u.id)).toContain(created.id)
          expect((yield* owner.users.get({ path: { id: created.id } })).username).toBe(username)
          // Names are stripped of surrounding whitespace (the typed client refuses to send them unstripped).
          const response = yield* raw("/api/v1/users", json({ first_name: " B ", username: unique("b"), password: "12345678" }))
          expect(response.status).toBe(201)
          expect(response.body).toMatchObject({ first_name: "B" })
        }))

      it.effect("a client-chosen id is ignored (the server issues one, also for a taken id); a duplicate username answers 409", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const id = UserId.make(crypto.randomUUID())
          const username = unique("dup")
          const created = yield* owner.users.create({ payload: { id, first_name: "D", username, password: "12345678" } })
          expect(created.id).not.toBe(id)
          const again = yield* raw("/api/v1/users", json({ first_name: "D", username, password: "12345678" }))
          expect(again.status).toBe(409)
          expect(again.body).toEqual({ detail: `User username \`${username}\` is not unique` })
          const other = yield* owner.users.create({
            payload: { id: created.id, first_name: "E", username: unique("e"), password: "12345678" }
          })
          expect(other.id).not.toBe(created.id)
        }))

      it.effect("create validates every field at its boundary (422)", () =>
        Effect.gen(function*() {
          const ok = { first_name: "V", password: "12345678" }
          const cases: ReadonlyArray<[unknown, number]> = [
            [{ ...ok, username: unique("v"), password: "1234567" }, 422],
            [{ ...ok, username: unique("v"), password: "x".repeat(100) }, 201],
            [{ ...ok, username: unique("v"), password: "x".repeat(101) }, 422],
            [{ ...ok, username: unique("v"), first_name: "   " }, 422],
            [{ ...ok, username: unique("v"), role: "superuser" }, 422],
            [{ ...ok, username: "" }, 422],
            [{ ...ok, username: "u".repeat(201) }, 422],
            [{ ...ok, username: unique("v"), last_name: "" }, 422],
            [{ ...ok, username: unique("v"), last_name: null }, 201],
            [{ ...ok, username: 42 }, 422],
            [{ first_name: "V", username: unique("v") }, 422],
            [{ ...ok, username: unique("v"), id: "not-a-uuid" }, 422]
          ]
          for (const [body, status] of cases) {
            const response = yield* raw("/api/v1/users", json(body))
            expect({ body, status: response.status }).toEqual({ body, status })
            if (status === 422) {
              expect(response.body).toMatchObject({ detail: { code: "argilla.api.errors::ValidationError" } })
            }
          }
        }))

      it.effect("owner updates a user: names, role, password (login works), and 409 on a taken username", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const { user } = yield* userWith("annotator")
          const updated = yield* owner.users.update({
            path: { id: user.id },
            payload: { first_name: "New", last_name: "Name", role: "admin", password: "new-password" }
          })
          expect(updated).toMatchObject({ first_name: "New", last_name: "Name", role: "admin", username: user.username })
          expect(updated.updated_at.getTime()).toBeGreaterThanOrEqual(user.updated_at.getTime())
          const token = yield* (yield* clientFor()).auth.token({
            payload: { username: user.username, password: "new-password" }
          })
          expect(token.access_token.length).toBeGreaterThan(20)
          const cleared = yield* owner.users.update({ path: { id: user.id }, payload: { last_name: null } })
          expect(cleared.last_name).toBeNull()
          yield* expectFailure(
            owner.users.update({ path: { id: user.id }, payload: { username: OWNER.username } }),
            "Conflict",
            `User username \`${OWNER.username}\` is not unique`
          )
          yield* expectFailure(owner.users.update({ path: { id: MISSING }, payload: { first_name: "x" } }), "NotFound")
        }))

      it.effect("owner deletes a user (200 with the user); its key stops working", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const { user, client } = yield* userWith("annotator")
          const deleted = yield* owner.users.delete({ path: { id: user.id } })
          expect(deleted.id).toBe(user.id)
          yield* expectFailure(client.me.me(), "Unauthorized")
          yield* expectFailure(owner.users.get({ path: { id: user.id } }), "NotFound", `User with id \`${user.id}\` not found`)
          yield* expectFailure(owner.users.delete({ path: { id: MISSING } }), "NotFound")
        }))

      it.effect("a user's workspaces: memberships for others, all workspaces for an owner", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const w = yield* workspace()
          const { user } = yield* userWith("annotator", [w])
          expect((yield* owner.users.workspaces({ path: { id: user.id } })).items.map((x) => x.id)).toEqual([w.id])
          const me = yield* owner.me.me()
          const all = yield* owner.me.workspaces()
          expect((yield* owner.users.workspaces({ path: { id: me.id } })).items).toEqual(all.items)
          yield* expectFailure(owner.users.workspaces({ path: { id: MISSING } }), "NotFound")
        }))

      for (const role of ["admin", "annotator"] as const) {
        it.effect(`${role} cannot list, get, create, update, delete users or list their workspaces (403)`, () =>
          Effect.gen(function*() {
            const w = yield* workspace()
            const { user, client } = yield* userWith(role, [w])
            yield* expectFailure(client.users.list(), "Forbidden")
            yield* expectFailure(client.users.get({ path: { id: user.id } }), "Forbidden")
            // The contract checks this policy before looking up: unknown ids are 403 too.
            yield* expectFailure(client.users.get({ path: { id: MISSING } }), "Forbidden")
            yield* expectFailure(client.users.workspaces({ path: { id: MISSING } }), "Forbidden")
            yield* expectFailure(
              client.users.create({ payload: { first_name: "x", username: unique("x"), password: "12345678" } }),
              "Forbidden"
            )
            yield* expectFailure(client.users.update({ path: { id: user.id }, payload: { role: "owner" } }), "Forbidden")
            yield* expectFailure(client.users.delete({ path: { id: user.id } }), "Forbidden")
            // …but update and delete look the user up first.
            yield* expectFailure(client.users.delete({ path: { id: MISSING } }), "NotFound")
            const response = yield* raw("/api/v1/users", { headers: { "x-gloss-api-key": user.api_key } })
            expect(response.status).toBe(403)
            expect(response.body).toEqual(FORBIDDEN)
          }))
      }
    })
  })
}

import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { UserId, WorkspaceId } from "../../src/domain/Ids.js"
import { dialects } from "../support/databases.js"
import { expectFailure } from "../support/expect.js"
import { unique, userWith, workspace } from "../support/fixtures.js"
import { OWNER, ownerClient, raw, TestServerLive } from "../support/server.js"

const MISSING = WorkspaceId.make("00000000-0000-4000-8000-000000000000")
const NO_USER = UserId.make("00000000-0000-4000-8000-000000000001")

/** A workspace and one user of each kind around it. */
const cast = Effect.gen(function*() {
  const w = yield* workspace()
  return {
    w,
    adminMember: yield* userWith("admin", [w]),
    adminOutsider: yield* userWith("admin"),
    annotatorMember: yield* userWith("annotator", [w]),
    annotatorOutsider: yield* userWith("annotator")
  }
})

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 60_000 })("workspaces", (it) => {
      it.effect("owner creates (201), gets and deletes (200 with the workspace) a workspace", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const name = unique("team")
          const response = yield* raw("/api/v1/workspaces", {
            method: "POST",
            headers: { "content-type": "application/json", "x-gloss-api-key": OWNER.apiKey },
            body: JSON.stringify({ name })
          })
          expect(response.status).toBe(201)
          expect(Object.keys(response.body as object).sort()).toEqual(["id", "inserted_at", "name", "updated_at"])
          const id = WorkspaceId.make((response.body as { id: string }).id)
          expect((yield* owner.workspaces.get({ path: { id } })).name).toBe(name)
          expect((yield* owner.workspaces.delete({ path: { id } })).name).toBe(name)
          yield* expectFailure(owner.workspaces.get({ path: { id } }), "NotFound", `Workspace with id \`${id}\` not found`)
          yield* expectFailure(owner.workspaces.delete({ path: { id } }), "NotFound")
        }))

      it.effect("workspace names follow the contract's pattern and are unique (422, 409)", () =>
        Effect.gen(function*() {
          const name = unique("uniq")
          yield* workspace(name)
          const post = (body: unknown) =>
            raw("/api/v1/workspaces", {
              method: "POST",
              headers: { "content-type": "application/json", "x-gloss-api-key": OWNER.apiKey },
              body: JSON.stringify(body)
            })
          const duplicate = yield* post({ name })
          expect(duplicate.status).toBe(409)
          expect(duplicate.body).toEqual({ detail: `Workspace name \`${name}\` is not unique` })
          for (const bad of ["Has Space", "UPPER", "-dash-first", "_underscore-first", "", "a".repeat(201), "dot.name"]) {
            const response = yield* post({ name: bad })
            expect({ bad, status: response.status }).toEqual({ bad, status: 422 })
          }
          for (const good of ["a", "0-team_1", unique("x")]) {
            const response = yield* post({ name: good })
            expect({ good, status: response.status }).toEqual({ good, status: 201 })
          }
          expect((yield* post({})).status).toBe(422)
        }))

      it.effect("only owners create or delete workspaces (403 for admins and annotators)", () =>
        Effect.gen(function*() {
          const { adminMember, annotatorMember, w } = yield* cast
          for (const { client } of [adminMember, annotatorMember]) {
            yield* expectFailure(client.workspaces.create({ payload: { name: unique("nope") } }), "Forbidden")
            yield* expectFailure(client.workspaces.delete({ path: { id: w.id } }), "Forbidden")
            yield* expectFailure(client.workspaces.delete({ path: { id: MISSING } }), "Forbidden")
          }
        }))

      it.effect("members read their workspace; outsiders get 403, even for ids that do not exist", () =>
        Effect.gen(function*() {
          const { adminMember, adminOutsider, annotatorMember, annotatorOutsider, w } = yield* cast
          for (const { client } of [adminMember, annotatorMember]) {
            expect((yield* client.workspaces.get({ path: { id: w.id } })).id).toBe(w.id)
          }
          for (const { client } of [adminOutsider, annotatorOutsider]) {
            yield* expectFailure(client.workspaces.get({ path: { id: w.id } }), "Forbidden")
          }
          yield* expectFailure(adminMember.client.workspaces.get({ path: { id: MISSING } }), "Forbidden")
          yield* expectFailure((yield* ownerClient).workspaces.get({ path: { id: MISSING } }), "NotFound")
        }))

      it.effect("owners and member admins list a workspace's users in joining order; others get 403", () =>
        Effect.gen(function*() {
          const { adminMember, adminOutsider, annotatorMember, annotatorOutsider, w } = yield* cast
          const expected = [adminMember.user.id, annotatorMember.user.id]
          expect((yield* (yield* ownerClient).workspaces.listUsers({ path: { id: w.id } })).items.map((u) => u.id))
            .toEqual(expected)
          expect((yield* adminMember.client.workspaces.listUsers({ path: { id: w.id } })).items.map((u) => u.id))
            .toEqual(expected)
          for (const { client } of [adminOutsider, annotatorMember, annotatorOutsider]) {
            yield* expectFailure(client.workspaces.listUsers({ path: { id: w.id } }), "Forbidden")
          }
          yield* expectFailure((yield* ownerClient).workspaces.listUsers({ path: { id: MISSING } }), "NotFound")
          yield* expectFailure(adminMember.client.workspaces.listUsers({ path: { id: MISSING } }), "Forbidden")
        }))

      it.effect("a workspace's member list and membership answers carry no API key, not even the caller's own", () =>
        Effect.gen(function*() {
          const { adminMember, annotatorOutsider, w } = yield* cast
          const ownerId = (yield* (yield* ownerClient).me.me()).id
          const asOwner = { "x-gloss-api-key": OWNER.apiKey, "content-type": "application/json" }
          const asAdmin = { "x-gloss-api-key": adminMember.user.api_key }
          const bodies = [
            yield* raw(`/api/v1/workspaces/${w.id}/users`, {
              method: "POST",
              headers: asOwner,
              body: JSON.stringify({ user_id: ownerId })
            }),
            yield* raw(`/api/v1/workspaces/${w.id}/users`, {
              method: "POST",
              headers: asOwner,
              body: JSON.stringify({ user_id: annotatorOutsider.user.id })
            }),
            yield* raw(`/api/v1/workspaces/${w.id}/users`, { headers: asOwner }),
            yield* raw(`/api/v1/workspaces/${w.id}/users`, { headers: asAdmin }),
            yield* raw(`/api/v1/workspaces/${w.id}/users/${annotatorOutsider.user.id}`, { method: "DELETE", headers: asOwner })
          ]
          expect(bodies.map((r) => r.status)).toEqual([201, 201, 200, 200, 200])
          const listed = (bodies[2]?.body as { items: ReadonlyArray<{ id: string }> }).items.map((u) => u.id)
          expect(listed).toContain(ownerId)
          expect(listed).toContain(adminMember.user.id)
          for (const { text } of bodies) {
            expect(text).not.toContain("api_key")
            expect(text).not.toContain(OWNER.apiKey)
            expect(text).not.toContain(adminMember.user.api_key)
          }
        }))

      it.effect("owner adds members (201 with the user); 404 workspace, 422 unknown user, 409 twice", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const { adminMember, annotatorOutsider, w } = yield* cast
          const added = yield* owner.workspaces.addUser({ path: { id: w.id }, payload: { user_id: annotatorOutsider.user.id } })
          expect(added.id).toBe(annotatorOutsider.user.id)
          expect((yield* annotatorOutsider.client.workspaces.get({ path: { id: w.id } })).id).toBe(w.id)
          yield* expectFailure(
            owner.workspaces.addUser({ path: { id: w.id }, payload: { user_id: annotatorOutsider.user.id } }),
            "Conflict"
          )
          yield* expectFailure(
            owner.workspaces.addUser({ path: { id: MISSING }, payload: { user_id: annotatorOutsider.user.id } }),
            "NotFound"
          )
          yield* expectFailure(
            owner.workspaces.addUser({ path: { id: w.id }, payload: { user_id: NO_USER } }),
            "Unprocessable",
            `User with id \`${NO_USER}\` not found`
          )
          yield* expectFailure(
            adminMember.client.workspaces.addUser({ path: { id: w.id }, payload: { user_id: adminMember.user.id } }),
            "Forbidden"
          )
        }))

      it.effect("owners and member admins remove members (200 with the user); 404 when not a member", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const { adminMember, adminOutsider, annotatorMember, w } = yield* cast
          const extra = yield* userWith("annotator", [w])
          yield* expectFailure(
            annotatorMember.client.workspaces.removeUser({ path: { id: w.id, user_id: extra.user.id } }),
            "Forbidden"
          )
          const outsiderTries = yield* userWith("annotator", [w])
          yield* expectFailure(
            adminOutsider.client.workspaces.removeUser({ path: { id: w.id, user_id: outsiderTries.user.id } }),
            "Forbidden"
          )
          const removed = yield* adminMember.client.workspaces.removeUser({ path: { id: w.id, user_id: extra.user.id } })
          expect(removed.id).toBe(extra.user.id)
          yield* expectFailure(extra.client.workspaces.get({ path: { id: w.id } }), "Forbidden")
          expect((yield* owner.workspaces.removeUser({ path: { id: w.id, user_id: outsiderTries.user.id } })).id)
            .toBe(outsiderTries.user.id)
          // The membership is looked up before the policy: anyone gets 404 for a missing one.
          yield* expectFailure(
            annotatorMember.client.workspaces.removeUser({ path: { id: w.id, user_id: extra.user.id } }),
            "NotFound",
            `WorkspaceUser not found filtering by workspace_id=${w.id}, user_id=${extra.user.id}`
          )
        }))

      it.effect("deleting a user removes its memberships", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const { annotatorMember, w } = yield* cast
          yield* owner.users.delete({ path: { id: annotatorMember.user.id } })
          const users = yield* owner.workspaces.listUsers({ path: { id: w.id } })
          expect(users.items.map((u) => u.id)).not.toContain(annotatorMember.user.id)
        }))
    })
  })
}

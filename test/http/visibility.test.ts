/**
 * What a caller is shown of what is not theirs: API keys (only their own, and every key to owners), responses
 * (annotators see their own only), and metadata hidden from annotators (left out of every record they read, and
 * not searchable by them). The rules are in services/datasets/viewer.ts and services/users/Users.ts (`shownTo`).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { User } from "../../src/domain/User.js"
import { dialects } from "../support/databases.js"
import { datasetPath, publishedDataset, send } from "../support/datasets.js"
import { userWith, workspace } from "../support/fixtures.js"
import { OWNER, ownerClient, TestServerLive } from "../support/server.js"

type Json = Record<string, unknown>
const body = (response: { readonly body: unknown }) => response.body as Json
const items = (response: { readonly body: unknown }) => (response.body as { items: Array<Json> }).items
const hits = (response: { readonly body: unknown }) => items(response).map((hit) => hit.record as Json)
const authors = (record: Json | undefined) =>
  ((record?.responses ?? []) as Array<{ user_id: string }>).map((response) => response.user_id).sort()
const metadataKeys = (record: Json | undefined) => Object.keys((record?.metadata ?? {}) as Json).sort()

/**
 * A workspace with two annotators, a member admin and the owner as members, and a published dataset with a visible
 * metadata property `source`, a hidden one `year`, and one record answered by both annotators that also carries an
 * undeclared key `extra`.
 */
const world = Effect.gen(function*() {
  const owner = yield* ownerClient
  const w = yield* workspace()
  const [alice, bob, admin] = [yield* userWith("annotator", [w]), yield* userWith("annotator", [w]), yield* userWith("admin", [w])]
  const me = yield* owner.me.me()
  yield* owner.workspaces.addUser({ path: { id: w.id }, payload: { user_id: me.id } })
  // Metadata properties may be added to a published dataset too.
  const dataset = yield* publishedDataset(w)
  const post = (payload: unknown) => send("POST", datasetPath(dataset, "/metadata-properties"), payload)
  yield* post({ name: "source", title: "Source", settings: { type: "terms" } })
  const year = yield* post({ name: "year", title: "Year", settings: { type: "integer" }, visible_for_annotators: false })
  expect(year.status).toBe(201)
  const answer = (user: User, value: string) => ({ user_id: user.id, status: "submitted", values: { label: { value } } })
  const created = yield* send("POST", datasetPath(dataset, "/records/bulk"), {
    items: [{
      fields: { text: "Acme hires" },
      metadata: { source: "web", year: 2020, extra: "undeclared" },
      responses: [answer(alice.user, "yes"), answer(bob.user, "no")]
    }]
  })
  expect(created.status).toBe(201)
  const recordId = items(created)[0]?.id as string
  return { w, alice, bob, admin, dataset, recordId, yearId: body(year).id as string }
})

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 60_000 })("what a caller is shown", (it) => {
      it.effect("an admin listing its workspace's members sees no API key, its own and the owner's included", () =>
        Effect.gen(function*() {
          const { admin, alice, w } = yield* world
          const listed = yield* send("GET", `/api/v1/workspaces/${w.id}/users`, undefined, admin.user.api_key)
          expect(listed.status).toBe(200)
          expect(items(listed)).toHaveLength(4)
          for (const user of items(listed)) {
            expect(user).not.toHaveProperty("api_key")
            expect(user).not.toHaveProperty("password_hash")
          }
          expect(listed.text).not.toContain(OWNER.apiKey)
          expect(listed.text).not.toContain(alice.user.api_key)
          expect(listed.text).not.toContain(admin.user.api_key)
        }))

      it.effect("an admin removing a member is answered with the user without its API key", () =>
        Effect.gen(function*() {
          const { admin, w } = yield* world
          const leaving = yield* userWith("annotator", [w])
          const removed = yield* send("DELETE", `/api/v1/workspaces/${w.id}/users/${leaving.user.id}`, undefined, admin.user.api_key)
          expect(removed.status).toBe(200)
          expect(body(removed)).toMatchObject({ id: leaving.user.id, username: leaving.user.username })
          expect(removed.text).not.toContain(leaving.user.api_key)
          expect(body(removed)).not.toHaveProperty("password_hash")
        }))

      it.effect("everyone sees their own API key at /me; owners see others' only in the answer that creates them", () =>
        Effect.gen(function*() {
          const { alice, w } = yield* world
          expect((yield* alice.client.me.me()).api_key).toBe(alice.user.api_key)
          const owner = yield* ownerClient
          expect((yield* owner.me.me()).api_key).toBe(OWNER.apiKey)
          // The fixture's user came from POST /users, which did carry the key; nothing afterwards does.
          expect(alice.user.api_key).toMatch(/^[A-Za-z0-9_-]{43,}$/)
          expect((yield* owner.users.get({ path: { id: alice.user.id } })).api_key).toBeUndefined()
          expect((yield* owner.users.list()).items.every((user) => user.api_key === undefined)).toBe(true)
          expect((yield* owner.users.update({ path: { id: alice.user.id }, payload: { last_name: "A" } })).api_key)
            .toBeUndefined()
          expect((yield* owner.workspaces.listUsers({ path: { id: w.id } })).items.every((user) => user.api_key === undefined))
            .toBe(true)
        }))

      it.effect("an annotator reading a record sees its own response only; member admins and owners see everyone's", () =>
        Effect.gen(function*() {
          const { admin, alice, bob, recordId } = yield* world
          const read = (key: string) => Effect.map(send("GET", `/api/v1/records/${recordId}`, undefined, key), body)
          expect(authors(yield* read(alice.user.api_key))).toEqual([alice.user.id])
          expect(authors(yield* read(bob.user.api_key))).toEqual([bob.user.id])
          const everyone = [alice.user.id, bob.user.id].sort()
          expect(authors(yield* read(admin.user.api_key))).toEqual(everyone)
          expect(authors(yield* read(OWNER.apiKey))).toEqual(everyone)
        }))

      it.effect("searches show responses as the contract scopes them: the caller's own in /me, everyone's in the global one", () =>
        Effect.gen(function*() {
          const { admin, alice, bob, dataset } = yield* world
          const mine = `/api/v1/me/datasets/${dataset.id}/records/search?include=responses`
          expect(authors(hits(yield* send("POST", mine, {}, alice.user.api_key))[0])).toEqual([alice.user.id])
          expect(authors(hits(yield* send("POST", mine, {}, admin.user.api_key))[0])).toEqual([])
          const global = datasetPath(dataset, "/records/search?include=responses")
          expect(authors(hits(yield* send("POST", global, {}, admin.user.api_key))[0])).toEqual([alice.user.id, bob.user.id].sort())
          expect((yield* send("POST", global, {}, alice.user.api_key)).status).toBe(403)
        }))

      it.effect("an annotator's records leave out hidden and undeclared metadata; member admins and owners see every key", () =>
        Effect.gen(function*() {
          const { admin, alice, dataset, recordId } = yield* world
          const record = (key: string) => Effect.map(send("GET", `/api/v1/records/${recordId}`, undefined, key), body)
          const searched = (key: string) => Effect.map(send("POST", `/api/v1/me/datasets/${dataset.id}/records/search`, {}, key), hits)
          expect(metadataKeys(yield* record(alice.user.api_key))).toEqual(["source"])
          expect(metadataKeys((yield* searched(alice.user.api_key))[0])).toEqual(["source"])
          const all = ["extra", "source", "year"]
          expect(metadataKeys(yield* record(admin.user.api_key))).toEqual(all)
          expect(metadataKeys((yield* searched(admin.user.api_key))[0])).toEqual(all)
          expect(metadataKeys(yield* record(OWNER.apiKey))).toEqual(all)
          expect(metadataKeys(items(yield* send("GET", datasetPath(dataset, "/records"), undefined, admin.user.api_key))[0]))
            .toEqual(all)
        }))

      it.effect("an annotator filtering or sorting on a hidden property gets the 422 of an unknown one; admins may", () =>
        Effect.gen(function*() {
          const { admin, alice, dataset } = yield* world
          const path = `/api/v1/me/datasets/${dataset.id}/records/search`
          const on = (property: string) => ({ entity: "metadata", metadata_property: property })
          const filter = (property: string) => ({ filters: { and: [{ type: "range", scope: on(property), ge: 2000 }] } })
          const sort = (property: string) => ({ sort: [{ scope: on(property), order: "desc" }] })
          for (const query of [filter, sort]) {
            const hidden = yield* send("POST", path, query("year"), alice.user.api_key)
            const unknown = yield* send("POST", path, query("nope"), alice.user.api_key)
            expect(hidden.status).toBe(422)
            expect(hidden.body).toEqual({ detail: "MetadataProperty not found filtering by name=year" })
            expect(unknown.body).toEqual({ detail: "MetadataProperty not found filtering by name=nope" })
            expect((yield* send("POST", path, query("year"), admin.user.api_key)).status).toBe(200)
          }
          const visible = { filters: { and: [{ type: "terms", scope: on("source"), values: ["web"] }] } }
          expect(hits(yield* send("POST", path, visible, alice.user.api_key))).toHaveLength(1)
        }))

      it.effect("an annotator lists only visible properties and cannot read a hidden one or its metrics (403)", () =>
        Effect.gen(function*() {
          const { admin, alice, dataset, yearId } = yield* world
          const names = (key: string) =>
            Effect.map(send("GET", `/api/v1/me/datasets/${dataset.id}/metadata-properties`, undefined, key), (r) =>
              items(r).map((p) => p.name).sort())
          expect(yield* names(alice.user.api_key)).toEqual(["source"])
          expect(yield* names(admin.user.api_key)).toEqual(["source", "year"])
          for (const path of [`/api/v1/metadata-properties/${yearId}`, `/api/v1/metadata-properties/${yearId}/metrics`]) {
            expect((yield* send("GET", path, undefined, alice.user.api_key)).status).toBe(403)
            expect((yield* send("GET", path, undefined, admin.user.api_key)).status).toBe(200)
          }
        }))
    })
  })
}

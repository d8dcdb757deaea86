import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DatasetId, WorkspaceId } from "../../src/domain/Ids.js"
import { dialects } from "../support/databases.js"
import { datasetPath, draftDataset, publishedDataset, send } from "../support/datasets.js"
import { expectFailure } from "../support/expect.js"
import { unique, userWith, workspace } from "../support/fixtures.js"
import { ownerClient, TestServerLive } from "../support/server.js"

const MISSING = DatasetId.make("00000000-0000-4000-8000-0000000000d5")
const NO_WORKSPACE = WorkspaceId.make("00000000-0000-4000-8000-0000000000a1")

/** A workspace and one user of each kind around it. */
const cast = Effect.gen(function*() {
  const w = yield* workspace()
  return {
    w,
    admin: yield* userWith("admin", [w]),
    outsiderAdmin: yield* userWith("admin"),
    annotator: yield* userWith("annotator", [w]),
    outsiderAnnotator: yield* userWith("annotator")
  }
})

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 60_000 })("datasets", (it) => {
      it.effect("owner creates a draft (201) with the contract's defaults", () =>
        Effect.gen(function*() {
          const w = yield* workspace()
          const response = yield* send("POST", "/api/v1/datasets", { name: "My dataset", workspace_id: w.id, id: null })
          expect(response.status).toBe(201)
          const body = response.body as Record<string, unknown>
          expect(body).toMatchObject({
            name: "My dataset",
            guidelines: null,
            allow_extra_metadata: true,
            status: "draft",
            distribution: { strategy: "overlap", min_submitted: 1 },
            metadata: null,
            workspace_id: w.id
          })
          expect(body.last_activity_at).toBe(body.inserted_at)
          const owner = yield* ownerClient
          const fetched = yield* owner.datasets.get({ path: { id: DatasetId.make(body.id as string) } })
          expect(fetched.name).toBe("My dataset")
        }))

      it.effect("names are unique per workspace (409); the same name in another workspace is fine", () =>
        Effect.gen(function*() {
          const w = yield* workspace()
          const dataset = yield* draftDataset(w, "shared-name")
          const again = yield* send("POST", "/api/v1/datasets", { name: "shared-name", workspace_id: w.id })
          expect(again.status).toBe(409)
          expect(again.body).toEqual({
            detail: `Dataset with name \`shared-name\` already exists for workspace with id \`${w.id}\``
          })
          expect((yield* draftDataset(undefined, "shared-name")).id).not.toBe(dataset.id)
        }))

      it.effect("create: owner gets 422 for an unknown workspace; admins create only where they are members", () =>
        Effect.gen(function*() {
          const { admin, annotator, outsiderAdmin, w } = yield* cast
          const unknown = yield* send("POST", "/api/v1/datasets", { name: "x", workspace_id: NO_WORKSPACE })
          expect(unknown.status).toBe(422)
          expect(unknown.body).toEqual({ detail: `Workspace with id \`${NO_WORKSPACE}\` not found` })
          const created = yield* admin.client.datasets.create({ payload: { name: unique("a"), workspace_id: w.id } })
          expect(created.workspace_id).toBe(w.id)
          yield* expectFailure(outsiderAdmin.client.datasets.create({ payload: { name: "x", workspace_id: w.id } }), "Forbidden")
          yield* expectFailure(
            outsiderAdmin.client.datasets.create({ payload: { name: "x", workspace_id: NO_WORKSPACE } }),
            "Forbidden"
          )
          yield* expectFailure(annotator.client.datasets.create({ payload: { name: "x", workspace_id: w.id } }), "Forbidden")
        }))

      it.effect("create validates name, guidelines and distribution at their bounds (422)", () =>
        Effect.gen(function*() {
          const w = yield* workspace()
          const cases: ReadonlyArray<[Record<string, unknown>, number]> = [
            [{ name: "" }, 422],
            [{ name: "n".repeat(201) }, 422],
            [{ name: unique("n").padEnd(200, "x") }, 201],
            [{ name: unique("g"), guidelines: "" }, 422],
            [{ name: unique("g"), guidelines: "g".repeat(10_000) }, 201],
            [{ name: unique("g"), guidelines: "g".repeat(10_001) }, 422],
            [{ name: unique("d"), distribution: { strategy: "overlap", min_submitted: 0 } }, 422],
            [{ name: unique("d"), distribution: { strategy: "overlap", min_submitted: 2 } }, 201],
            [{ name: unique("d"), distribution: { strategy: "majority", min_submitted: 1 } }, 422],
            [{ name: unique("m"), metadata: { source: "crawl", n: 3 } }, 201],
            [{ name: unique("m"), metadata: [1, 2] }, 422],
            [{ name: unique("w"), workspace_id: "nope" }, 422]
          ]
          for (const [body, status] of cases) {
            const response = yield* send("POST", "/api/v1/datasets", { workspace_id: w.id, ...body })
            expect({ body, status: response.status }).toEqual({ body, status })
          }
        }))

      it.effect("PATCH updates what is given, merges metadata keys, clears with null, and 409s on a taken name", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const w = yield* workspace()
          const other = yield* draftDataset(w)
          const dataset = yield* owner.datasets.create({
            payload: { name: unique("p"), workspace_id: w.id, metadata: { a: 1 } }
          })
          const updated = yield* owner.datasets.update({
            path: { id: dataset.id },
            payload: {
              guidelines: "Label carefully",
              allow_extra_metadata: false,
              distribution: { strategy: "overlap", min_submitted: 3 },
              metadata: { b: 2 }
            }
          })
          expect(updated).toMatchObject({
            name: dataset.name,
            guidelines: "Label carefully",
            allow_extra_metadata: false,
            distribution: { strategy: "overlap", min_submitted: 3 },
            metadata: { a: 1, b: 2 }
          })
          const cleared = yield* owner.datasets.update({ path: { id: dataset.id }, payload: { guidelines: null, metadata: null } })
          expect(cleared).toMatchObject({ guidelines: null, metadata: null, allow_extra_metadata: false })
          const renamed = yield* send("PATCH", datasetPath(dataset), { name: other.name })
          expect(renamed.status).toBe(409)
          expect((yield* send("PATCH", datasetPath(dataset), { name: null })).status).toBe(422)
          expect((yield* send("PATCH", datasetPath(dataset), { allow_extra_metadata: null })).status).toBe(422)
          expect((yield* send("PATCH", datasetPath(dataset), { guidelines: "g".repeat(10_001) })).status).toBe(422)
        }))

      it.effect("publish needs fields and a required question; a published dataset cannot be published again", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const dataset = yield* draftDataset()
          const publish = () => send("PUT", datasetPath(dataset, "/publish"))
          expect((yield* publish()).body).toEqual({ detail: "Dataset cannot be published without fields" })
          yield* owner.fields.create({ path: { id: dataset.id }, payload: { name: "text", title: "Text", settings: { type: "text" } } })
          yield* owner.questions.create({
            path: { id: dataset.id },
            payload: { name: "comment", title: "Comment", required: false, settings: { type: "text" } }
          })
          const noRequired = yield* publish()
          expect(noRequired.status).toBe(422)
          expect(noRequired.body).toEqual({ detail: "Dataset cannot be published without required questions" })
          yield* owner.questions.create({
            path: { id: dataset.id },
            payload: { name: "score", title: "Score", required: true, settings: { type: "rating", options: [{ value: 1 }, { value: 2 }] } }
          })
          const published = yield* publish()
          expect(published.status).toBe(200)
          expect(published.body).toMatchObject({ status: "ready" })
          expect((yield* publish()).body).toEqual({ detail: "Dataset has already been published" })
        }))

      it.effect("members read a dataset; outsiders get 403; unknown ids 404 for everyone (looked up first)", () =>
        Effect.gen(function*() {
          const { admin, annotator, outsiderAdmin, outsiderAnnotator, w } = yield* cast
          const dataset = yield* draftDataset(w)
          for (const { client } of [admin, annotator]) expect((yield* client.datasets.get({ path: { id: dataset.id } })).id).toBe(dataset.id)
          for (const { client } of [outsiderAdmin, outsiderAnnotator]) {
            yield* expectFailure(client.datasets.get({ path: { id: dataset.id } }), "Forbidden")
            yield* expectFailure(client.datasets.get({ path: { id: MISSING } }), "NotFound", `Dataset with id \`${MISSING}\` not found`)
          }
        }))

      it.effect("only owners and member admins update, publish or delete (403 otherwise)", () =>
        Effect.gen(function*() {
          const { admin, annotator, outsiderAdmin, w } = yield* cast
          const dataset = yield* publishedDataset(w)
          for (const { client } of [annotator, outsiderAdmin]) {
            yield* expectFailure(client.datasets.update({ path: { id: dataset.id }, payload: { guidelines: "x" } }), "Forbidden")
            yield* expectFailure(client.datasets.publish({ path: { id: dataset.id } }), "Forbidden")
            yield* expectFailure(client.datasets.delete({ path: { id: dataset.id } }), "Forbidden")
          }
          expect((yield* admin.client.datasets.update({ path: { id: dataset.id }, payload: { guidelines: "ok" } })).guidelines).toBe("ok")
          expect((yield* admin.client.datasets.delete({ path: { id: dataset.id } })).id).toBe(dataset.id)
        }))

      it.effect("DELETE cascades to everything the dataset owns and returns the dataset", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const dataset = yield* publishedDataset()
          const [field] = (yield* owner.fields.list({ path: { id: dataset.id } })).items
          const deleted = yield* owner.datasets.delete({ path: { id: dataset.id } })
          expect(deleted.id).toBe(dataset.id)
          yield* expectFailure(owner.datasets.get({ path: { id: dataset.id } }), "NotFound")
          expect((yield* send("PATCH", `/api/v1/fields/${field?.id}`, { title: "x" })).status).toBe(404)
          yield* expectFailure(owner.datasets.delete({ path: { id: dataset.id } }), "NotFound")
        }))

      it.effect("GET /me/datasets: owners see all, others their workspaces; filters by workspace, name and status", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const { annotator, outsiderAnnotator, w } = yield* cast
          const draft = yield* draftDataset(w)
          const ready = yield* publishedDataset(w)
          const elsewhere = yield* draftDataset()
          const all = (yield* owner.datasets.listMine({ urlParams: {} })).items.map((d) => d.id)
          expect(all).toEqual(expect.arrayContaining([draft.id, ready.id, elsewhere.id]))
          const mine = (yield* annotator.client.datasets.listMine({ urlParams: {} })).items.map((d) => d.id)
          expect(mine).toEqual([draft.id, ready.id])
          expect((yield* outsiderAnnotator.client.datasets.listMine({ urlParams: {} })).items).toEqual([])
          const byStatus = yield* annotator.client.datasets.listMine({ urlParams: { status: "ready" } })
          expect(byStatus.items.map((d) => d.id)).toEqual([ready.id])
          const byName = yield* owner.datasets.listMine({ urlParams: { name: draft.name, workspace_id: w.id } })
          expect(byName.items.map((d) => d.id)).toEqual([draft.id])
          yield* expectFailure(
            outsiderAnnotator.client.datasets.listMine({ urlParams: { workspace_id: w.id } }),
            "Forbidden"
          )
          expect((yield* send("GET", "/api/v1/me/datasets?status=archived")).status).toBe(422)
        }))

      it.effect("a workspace that still holds datasets cannot be deleted (409) until they are gone", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const w = yield* workspace()
          const dataset = yield* draftDataset(w)
          const refused = yield* send("DELETE", `/api/v1/workspaces/${w.id}`)
          expect(refused.status).toBe(409)
          expect(refused.body).toEqual({
            detail: `Cannot delete the workspace \`${w.id}\`. This workspace has some datasets linked`
          })
          yield* owner.datasets.delete({ path: { id: dataset.id } })
          expect((yield* owner.workspaces.delete({ path: { id: w.id } })).id).toBe(w.id)
        }))
    })
  })
}

/**
 * The Argilla SDK's dataset lookup rules and their client errors for the Effect face, against a real server: by id, by
 * name in a given, default or unknown workspace, a whole workspace, name and id, neither; and `add` with its settings.
 */
import { expect, layer } from "@effect/vitest"
import { Chunk, Effect, Option, Stream } from "effect"
import type { DatasetDraft } from "../../src/client/index.js"
import { publishedDataset } from "../support/datasets.js"
import { unique, workspace } from "../support/fixtures.js"
import { TestServerLive } from "../support/server.js"
import { ownerGloss, valueOf, withLogs } from "./support.js"

const MISSING = "00000000-0000-4000-8000-000000000000"

layer(TestServerLive("sqlite"), { excludeTestServices: true, timeout: 60_000 })("datasets: SDK lookup rules", (it) => {
  it.scoped("id only: the dataset with its settings, or None with a warning", () =>
    Effect.gen(function*() {
      const client = yield* ownerGloss()
      const dataset = yield* publishedDataset()
      const found = Option.getOrThrow(yield* client.datasets({ id: dataset.id }))
      expect(found).toMatchObject({ id: dataset.id, name: dataset.name, status: "ready" })
      expect(found.settings.fields.map((f) => f.name)).toEqual(["text"])
      expect(found.settings.questions.map((q) => q.name)).toEqual(["label"])
      expect(found.settings).toMatchObject({ metadata: [], vectors: [] })

      const missing = yield* withLogs(client.datasets({ id: MISSING }))
      expect(valueOf(missing.result)).toEqual(Option.none())
      expect(missing.warnings).toEqual([`Dataset with id '${MISSING}' not found`])
    }))

  it.scoped("name with a workspace (object or name); unknown names and workspaces", () =>
    Effect.gen(function*() {
      const client = yield* ownerGloss()
      const team = yield* workspace()
      const dataset = yield* publishedDataset(team)
      for (const ref of [team, team.name]) {
        const found = yield* client.datasets({ name: dataset.name, workspace: ref })
        expect(Option.map(found, (d) => d.id)).toEqual(Option.some(dataset.id))
      }
      const missing = yield* withLogs(client.datasets({ name: "nope", workspace: team }))
      expect(valueOf(missing.result)).toEqual(Option.none())
      expect(missing.warnings).toEqual([`Dataset with name 'nope' not found in workspace '${team.name}'`])

      const unknown = yield* Effect.flip(client.datasets({ name: dataset.name, workspace: "no-such-workspace" }))
      expect(unknown._tag).toBe("WorkspaceNotFound")
      expect(unknown.message).toBe(
        "Workspace 'no-such-workspace' not found, provide a valid workspace name or id"
      )
      expect((yield* Effect.flip(client.datasets({ workspace: "no-such-workspace" })))._tag).toBe("WorkspaceNotFound")
    }))

  it.scoped("name without a workspace: looked up in the default workspace (the first one)", () =>
    Effect.gen(function*() {
      const client = yield* ownerGloss()
      yield* workspace()
      const first = yield* client.workspaces.default
      const dataset = yield* publishedDataset(first)
      const found = yield* client.datasets({ name: dataset.name })
      expect(Option.map(found, (d) => d.workspace_id)).toEqual(Option.some(first.id))

      // The same name in another workspace is not what a lookup without workspace finds.
      const elsewhere = yield* withLogs(client.datasets({ name: (yield* publishedDataset()).name }))
      expect(valueOf(elsewhere.result)).toEqual(Option.none())
      expect(elsewhere.warnings[0]).toContain(`not found in workspace '${first.name}'`)
    }))

  it.scoped("workspace only: every dataset of that workspace, with settings", () =>
    Effect.gen(function*() {
      const client = yield* ownerGloss()
      const team = yield* workspace()
      const a = yield* publishedDataset(team)
      const b = yield* publishedDataset(team)
      yield* publishedDataset()
      const all = yield* client.datasets({ workspace: team.name })
      expect(all.map((d) => d.id).sort()).toEqual([a.id, b.id].sort())
      expect(all.every((d) => d.settings.fields.length === 1)).toBe(true)
    }))

  it.scoped("name and id: a warning, and the id wins; none of them: MissingLookupArgument", () =>
    Effect.gen(function*() {
      const client = yield* ownerGloss()
      const a = yield* publishedDataset()
      const b = yield* publishedDataset()
      const both = yield* withLogs(client.datasets({ name: a.name, id: b.id }))
      expect(Option.map(valueOf(both.result), (d) => d.id)).toEqual(Option.some(b.id))
      expect(both.warnings).toEqual(["Only one of 'name' or 'id' must be provided. Using 'id'"])
      const none = yield* Effect.flip(client.datasets({}))
      expect(none._tag).toBe("MissingLookupArgument")
      expect(none.message).toBe("One of 'name', 'id' or 'workspace' must be provided")
    }))

  it.scoped("list, count, at, slice and stream hand out fully fetched datasets", () =>
    Effect.gen(function*() {
      const client = yield* ownerGloss()
      const dataset = yield* publishedDataset()
      const listed = yield* client.datasets.list()
      expect(yield* client.datasets.count()).toBe(listed.length)
      const last = Option.getOrThrow(yield* client.datasets.at(-1))
      expect(last.id).toBe(dataset.id)
      expect(last.settings.questions[0]?.name).toBe("label")
      expect((yield* client.datasets.slice(0, 1)).map((d) => d.id)).toEqual([listed[0]?.id])
      const streamed = Chunk.toReadonlyArray(yield* Stream.runCollect(client.datasets.stream))
      expect(streamed.map((d) => d.id)).toEqual(listed.map((d) => d.id))
      expect(streamed.every((d) => d.settings.fields.length > 0)).toBe(true)
    }))

  it.scoped("add: draft, settings, publish; in the default workspace with the SDK's warning", () =>
    Effect.gen(function*() {
      const client = yield* ownerGloss()
      const settings: DatasetDraft["settings"] = {
        fields: [{ name: "prompt", title: "Prompt", settings: { type: "text" } }],
        questions: [{
          name: "ok",
          title: "OK?",
          required: true,
          settings: { type: "label_selection", options: [{ value: "y", text: "Yes" }, { value: "n", text: "No" }] }
        }],
        metadata: [{ name: "source", title: "Source", settings: { type: "terms", values: ["a", "b"] } }],
        vectors: [{ name: "emb", title: "Embedding", dimensions: 3 }]
      }
      const team = yield* workspace()
      const created = yield* client.datasets.add({ name: unique("new"), workspace: team, settings })
      expect(created).toMatchObject({ status: "ready", workspace_id: team.id })
      expect(created.settings.metadata.map((m) => m.name)).toEqual(["source"])
      expect(created.settings.vectors.map((v) => v.name)).toEqual(["emb"])

      const first = yield* client.workspaces.default
      const defaulted = yield* withLogs(client.datasets.add({ name: unique("def"), settings }))
      expect(valueOf(defaulted.result).workspace_id).toBe(first.id)
      expect(defaulted.warnings).toEqual([`Workspace not provided. Using default workspace: ${first.name} id: ${first.id}`])
    }))

  it.scoped("add: a dataset whose settings fail is deleted again, and the failure is reported", () =>
    Effect.gen(function*() {
      const client = yield* ownerGloss()
      const team = yield* workspace()
      const name = unique("broken")
      // Publishing needs a question: the draft gets its field, then publishing fails (422).
      const failed = yield* Effect.flip(client.datasets.add({
        name,
        workspace: team,
        settings: { fields: [{ name: "text", title: "Text", settings: { type: "text" } }], questions: [] }
      }))
      expect(failed._tag).toBe("Unprocessable")
      expect(yield* client.datasets({ workspace: team })).toEqual([])
    }))
})

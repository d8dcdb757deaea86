/**
 * The Promise face on the same cases as the Effect face: lookups and their warnings (through `onLog`), errors as
 * the same tagged objects, `default`, async iteration, records, and the transport rules.
 */
import { expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import {
  Client,
  ConnectionFailed,
  MissingLookupArgument,
  NoWorkspaces,
  RequestTimeout,
  WorkspaceNotFound
} from "../../src/client/index.js"
import { publishedDataset } from "../support/datasets.js"
import { unique, userWith, workspace } from "../support/fixtures.js"
import { OWNER, TestServer, TestServerLive, withoutWorkspaces } from "../support/server.js"
import { freePort, json, STUB_USER, stubServer } from "./support.js"

const MISSING = "00000000-0000-4000-8000-000000000000"

/** A Promise client of the test server whose warnings land in `warnings`. */
const promiseClient = Effect.gen(function*() {
  const { url } = yield* TestServer
  const warnings: Array<string> = []
  const client = yield* Effect.promise(() =>
    Client.connect({
      apiUrl: url,
      apiKey: OWNER.apiKey,
      onLog: ({ level, message }) => {
        if (level === "WARN") warnings.push(message)
      }
    })
  )
  yield* Effect.addFinalizer(() => Effect.promise(() => client.close()))
  return { client, warnings }
})

/** The rejection of a Promise, as a value. */
const rejection = (promise: () => Promise<unknown>) =>
  Effect.promise(() => promise().then(() => undefined, (error: unknown) => error))

layer(TestServerLive("sqlite"), { excludeTestServices: true, timeout: 60_000 })("Promise face, no workspaces yet", (it) => {
  it.scoped("client.workspaces.default rejects with NoWorkspaces", () =>
    Effect.gen(function*() {
      yield* withoutWorkspaces
      const { client } = yield* promiseClient
      const error = yield* rejection(() => client.workspaces.default)
      expect(error).toBeInstanceOf(NoWorkspaces)
    }))
})

layer(TestServerLive("sqlite"), { excludeTestServices: true, timeout: 60_000 })("Promise face", (it) => {
  it.scoped("workspaces and users: the lookup rules, warnings through onLog, undefined for not found", () =>
    Effect.gen(function*() {
      const { client, warnings } = yield* promiseClient
      const a = yield* workspace()
      const b = yield* workspace()
      const { user } = yield* userWith("annotator", [a])
      yield* Effect.promise(async () => {
        expect(await client.workspaces({ name: a.name })).toEqual(a)
        expect(await client.workspaces.get({ id: b.id })).toEqual(b)
        expect(await client.workspaces({ name: a.name, id: b.id })).toEqual(b)
        expect(await client.workspaces({ name: "nobody" })).toBeUndefined()
        expect(await client.workspaces({ id: MISSING })).toBeUndefined()
        expect((await client.users({ username: user.username }))?.id).toBe(user.id)
        expect(await client.users({ username: "ghost" })).toBeUndefined()
        expect((await client.users.list({ workspace: a })).map((u) => u.id)).toEqual([user.id])
      })
      expect(warnings).toEqual([
        "Only one of 'name' or 'id' must be provided. Using 'id'",
        "Workspace with name 'nobody' not found.",
        `Workspace with id '${MISSING}' not found`,
        "User with username 'ghost' not found."
      ])
      const neither = yield* rejection(() => client.workspaces({}))
      expect(neither).toBeInstanceOf(MissingLookupArgument)
      expect(neither).toMatchObject({ _tag: "MissingLookupArgument", message: "One of 'name' or 'id' must be provided" })
    }))

  it.scoped("collections: count, at, slice, default, async iteration, add", () =>
    Effect.gen(function*() {
      const { client } = yield* promiseClient
      yield* workspace()
      yield* Effect.promise(async () => {
        const added = await client.workspaces.add({ name: unique("p") })
        const listed = await client.workspaces.list()
        expect(await client.workspaces.count()).toBe(listed.length)
        expect(await client.workspaces.at(-1)).toEqual(added)
        expect(await client.workspaces.at(listed.length)).toBeUndefined()
        expect(await client.workspaces.slice(0, 1)).toEqual(listed.slice(0, 1))
        expect(await client.workspaces.default).toEqual(listed[0])
        const iterated = []
        for await (const w of client.workspaces) iterated.push(w)
        expect(iterated).toEqual(listed)
      })
    }))

  it.scoped("datasets: id, name with workspace, workspace only, unknown workspace, neither", () =>
    Effect.gen(function*() {
      const { client, warnings } = yield* promiseClient
      const team = yield* workspace()
      const dataset = yield* publishedDataset(team)
      yield* Effect.promise(async () => {
        expect((await client.datasets({ id: dataset.id }))?.settings.fields.map((f) => f.name)).toEqual(["text"])
        expect((await client.datasets({ name: dataset.name, workspace: team.name }))?.id).toBe(dataset.id)
        expect((await client.datasets({ workspace: team })).map((d) => d.id)).toEqual([dataset.id])
        expect(await client.datasets({ name: "nope", workspace: team })).toBeUndefined()
        const datasets = []
        for await (const d of client.datasets) datasets.push(d)
        expect(datasets.every((d) => d.settings.questions.length === 1)).toBe(true)
      })
      expect(warnings).toEqual([`Dataset with name 'nope' not found in workspace '${team.name}'`])
      expect(yield* rejection(() => client.datasets({ name: dataset.name, workspace: "no-such" })))
        .toBeInstanceOf(WorkspaceNotFound)
      expect(yield* rejection(() => client.datasets({}))).toBeInstanceOf(MissingLookupArgument)
    }))

  it.scoped("records: log, stream as an async iterator, delete; me is cached", () =>
    Effect.gen(function*() {
      const { client } = yield* promiseClient
      const dataset = yield* publishedDataset()
      yield* Effect.promise(async () => {
        const logged = await client.records.log(dataset, [
          { external_id: "a", fields: { text: "one" } },
          { external_id: "b", fields: { text: "two" } }
        ], { batchSize: 1 })
        expect(logged).toMatchObject({ created: 2, updated: 0 })
        const seen = []
        for await (const record of client.records.stream(dataset, { batchSize: 1 })) seen.push(record.external_id)
        expect(seen.sort()).toEqual(["a", "b"])
        expect(await client.records.delete(dataset, logged.items)).toBe(2)
        expect(await client.me).toBe(await client.me)
      })
    }))

  it.scoped("new Client() is lazy: nothing is sent before the first call; errors reject as tagged objects", () =>
    Effect.gen(function*() {
      const { url } = yield* TestServer
      const client = new Client({ apiUrl: url, apiKey: "wrong-key-123" })
      const error = yield* rejection(() => client.me)
      expect(error).toMatchObject({ _tag: "Unauthorized" })
      yield* Effect.promise(() => client.close())
      const saved = process.env.GLOSS_API_KEY
      delete process.env.GLOSS_API_KEY
      yield* Effect.addFinalizer(() => Effect.sync(() => {
        if (saved !== undefined) process.env.GLOSS_API_KEY = saved
      }))
      const missing = yield* rejection(() => new Client({ apiUrl: url, apiKey: "" }).me)
      expect(missing).toMatchObject({ _tag: "MissingApiKey" })
    }))
})

it.live("Promise transport: RequestTimeout from a slow server, ConnectionFailed from a closed port", () =>
  Effect.scoped(Effect.gen(function*() {
    const slow = yield* stubServer((res) => setTimeout(() => json(res, 200, STUB_USER), 2_000))
    const timeout = yield* rejection(() => Client.connect({ apiUrl: slow.url, apiKey: "k", timeout: 0.2 }))
    expect(timeout).toBeInstanceOf(RequestTimeout)
    const port = yield* freePort
    const down = yield* rejection(() =>
      Client.connect({ apiUrl: `http://127.0.0.1:${port}`, apiKey: "k", retryBackoff: "1 millis" })
    )
    expect(down).toBeInstanceOf(ConnectionFailed)
    expect(down).toMatchObject({ attempts: 6 })
  })))

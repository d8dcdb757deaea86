/**
 * The Argilla SDK's lookup rules for workspaces and users, and their client errors, for the Effect face, against a real
 * server: by name, by id, by both (warning, id wins), by neither (error), not found (None and a warning).
 */
import { expect, layer } from "@effect/vitest"
import { Chunk, Effect, Option, Stream } from "effect"
import { NoWorkspaces } from "../../src/client/index.js"
import { unique, userWith, workspace } from "../support/fixtures.js"
import { TestServerLive, withoutWorkspaces } from "../support/server.js"
import { ownerGloss, valueOf, withLogs } from "./support.js"

const MISSING = "00000000-0000-4000-8000-000000000000"

// First, on a server where nobody has created a workspace yet.
layer(TestServerLive("sqlite"), { excludeTestServices: true, timeout: 60_000 })("a server without workspaces", (it) => {
  it.scoped("workspaces.default fails with NoWorkspaces; a dataset lookup by name without workspace too", () =>
    Effect.gen(function*() {
      yield* withoutWorkspaces
      const client = yield* ownerGloss()
      const error = yield* Effect.flip(client.workspaces.default)
      expect(error).toBeInstanceOf(NoWorkspaces)
      expect(error.message).toBe("There are no workspaces created: create a workspace first")
      expect((yield* Effect.flip(client.datasets.get({ name: "x" })))._tag).toBe("NoWorkspaces")
      expect(yield* client.workspaces.count()).toBe(0)
    }))
})

layer(TestServerLive("sqlite"), { excludeTestServices: true, timeout: 60_000 })("lookups", (it) => {
  it.scoped("workspaces: by name, by id, both (warning, id wins), neither (error), not found (None + warning)", () =>
    Effect.gen(function*() {
      const client = yield* ownerGloss()
      const first = yield* workspace()
      const second = yield* workspace()

      expect(yield* client.workspaces.get({ name: second.name })).toEqual(Option.some(second))
      expect(yield* client.workspaces({ id: second.id })).toEqual(Option.some(second))

      const both = yield* withLogs(client.workspaces({ name: first.name, id: second.id }))
      expect(valueOf(both.result)).toEqual(Option.some(second))
      expect(both.warnings).toEqual(["Only one of 'name' or 'id' must be provided. Using 'id'"])

      const neither = yield* Effect.flip(client.workspaces({}))
      expect(neither._tag).toBe("MissingLookupArgument")
      expect(neither.message).toBe("One of 'name' or 'id' must be provided")

      const byName = yield* withLogs(client.workspaces({ name: "nobody-has-this" }))
      expect(valueOf(byName.result)).toEqual(Option.none())
      expect(byName.warnings).toEqual(["Workspace with name 'nobody-has-this' not found."])

      const byId = yield* withLogs(client.workspaces({ id: MISSING }))
      expect(valueOf(byId.result)).toEqual(Option.none())
      expect(byId.warnings).toEqual([`Workspace with id '${MISSING}' not found`])

      expect((yield* Effect.flip(client.workspaces({ id: "not-a-uuid" })))._tag).toBe("InvalidId")
    }))

  it.scoped("workspaces: list, count, at (negative too), slice, stream, default (the first), add", () =>
    Effect.gen(function*() {
      const client = yield* ownerGloss()
      const added = yield* client.workspaces.add({ name: unique("added") })
      const listed = yield* client.workspaces.list()
      expect(listed.at(-1)).toEqual(added)
      expect(yield* client.workspaces.count()).toBe(listed.length)
      expect(yield* client.workspaces.at(0)).toEqual(Option.some(listed[0]))
      expect(yield* client.workspaces.at(-1)).toEqual(Option.some(added))
      expect(yield* client.workspaces.at(listed.length)).toEqual(Option.none())
      expect(yield* client.workspaces.slice(-2)).toEqual(listed.slice(-2))
      expect(Chunk.toReadonlyArray(yield* Stream.runCollect(client.workspaces.stream))).toEqual(listed)
      expect(yield* client.workspaces.default).toEqual(listed[0])
    }))

  it.scoped("users: by username, by id, both, neither, not found; list of all and of a workspace; add", () =>
    Effect.gen(function*() {
      const client = yield* ownerGloss()
      const team = yield* workspace()
      const { user: member } = yield* userWith("annotator", [team])
      const other = yield* client.users.add({ username: unique("other"), password: "password-1234" })
      expect(other).toMatchObject({ first_name: other.username, role: "annotator" })

      expect(Option.map(yield* client.users({ username: member.username }), (u) => u.id)).toEqual(Option.some(member.id))
      expect(Option.map(yield* client.users.get({ id: member.id }), (u) => u.username)).toEqual(Option.some(member.username))

      const both = yield* withLogs(client.users({ username: other.username, id: member.id }))
      expect(Option.map(valueOf(both.result), (u) => u.id)).toEqual(Option.some(member.id))
      expect(both.warnings).toEqual(["Only one of 'username' or 'id' must be provided. Using 'id'"])

      expect((yield* Effect.flip(client.users({}))).message).toBe("One of 'username' or 'id' must be provided")

      const missing = yield* withLogs(client.users({ username: "ghost" }))
      expect(valueOf(missing.result)).toEqual(Option.none())
      expect(missing.warnings).toEqual(["User with username 'ghost' not found."])
      const missingId = yield* withLogs(client.users({ id: MISSING }))
      expect(missingId.warnings).toEqual([`User with id '${MISSING}' not found`])

      expect((yield* client.users.list({ workspace: team })).map((u) => u.id)).toEqual([member.id])
      expect((yield* client.users.list({ workspace: team.name })).map((u) => u.id)).toEqual([member.id])
      const everyone = (yield* client.users.list()).map((u) => u.id)
      expect(everyone).toEqual(expect.arrayContaining([member.id, other.id]))
      expect(yield* client.users.count()).toBe(everyone.length)
      expect(Option.map(yield* client.users.at(-1), (u) => u.id)).toEqual(Option.some(other.id))
    }))
})

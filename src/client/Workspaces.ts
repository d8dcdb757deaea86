/**
 * `client.workspaces`: the workspaces the caller sees (`GET /me/workspaces`), looked up by name
 * or id, created, counted, indexed and streamed; `default` is the first of the list.
 */
import { Array as Arr, Effect, Option } from "effect"
import { WorkspaceId } from "../domain/Ids.js"
import type { Workspace } from "../domain/Workspace.js"
import { NoWorkspaces, WorkspaceNotFound } from "./Errors.js"
import { lookupByNameOrId, quoted } from "./lookup.js"
import { sequenceOf } from "./sequence.js"
import type { Transport } from "./Transport.js"

export interface WorkspaceLookup {
  readonly name?: string | undefined
  readonly id?: string | undefined
}

/** What the client needs of a workspace it is given. */
export type WorkspaceInfo = Pick<Workspace, "id" | "name">

/** A workspace as the Argilla SDK accepts it: an object with its id, or a string resolved by name (then by id). */
export type WorkspaceRef = string | WorkspaceInfo

export interface WorkspaceDraft {
  readonly name: string
}

export const makeWorkspaces = ({ api, call }: Transport) => {
  const list = Effect.map(call(api.me.workspaces()), ({ items }) => items)

  const get = Effect.fn("GlossClient.workspaces.get")(function*(lookup: WorkspaceLookup) {
    return yield* lookupByNameOrId({
      entity: "Workspace",
      nameArgument: "name",
      name: lookup.name,
      id: lookup.id,
      idSchema: WorkspaceId,
      byId: (id) => call(api.workspaces.get({ path: { id } })),
      list,
      nameOf: (workspace) => workspace.name,
      notFoundByName: (name) => `Workspace with name ${quoted(name)} not found.`
    })
  })

  const add = Effect.fn("GlossClient.workspaces.add")(function*(draft: WorkspaceDraft) {
    return yield* call(api.workspaces.create({ payload: { name: draft.name } }))
  })

  const defaultWorkspace = Effect.flatMap(list, (items) =>
    Option.match(Arr.head(items), {
      onNone: () => Effect.fail(new NoWorkspaces()),
      onSome: Effect.succeed
    })).pipe(Effect.withSpan("GlossClient.workspaces.default"))

  /** A workspace reference made concrete; a name (or id) nobody sees fails with `WorkspaceNotFound`. */
  const resolve = Effect.fn("GlossClient.workspaces.resolve")(function*(ref: WorkspaceRef) {
    if (typeof ref !== "string") return ref satisfies WorkspaceInfo
    const items = yield* list
    const found = Arr.findFirst(items, (w) => w.name === ref).pipe(
      Option.orElse(() => Arr.findFirst(items, (w) => w.id === ref))
    )
    return yield* Option.match(found, {
      onNone: () => Effect.fail(new WorkspaceNotFound({ workspace: ref })),
      onSome: Effect.succeed
    })
  })

  return Object.assign((lookup: WorkspaceLookup) => get(lookup), {
    get,
    list: () => list,
    add,
    default: defaultWorkspace,
    resolve,
    ...sequenceOf(list, Effect.succeed)
  })
}

export type Workspaces = ReturnType<typeof makeWorkspaces>

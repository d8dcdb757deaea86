/**
 * `client.datasets`: the datasets the caller sees (`GET /me/datasets`), each handed out with its
 * settings. A lookup by id, by name within a workspace (given, preferred, or the default one), or of a whole
 * workspace; not found is `None` with a warning.
 */
import { Array as Arr, Effect, Option } from "effect"
import { DatasetId } from "../domain/Ids.js"
import { type Dataset, type DatasetDraft, makeDatasetSettings } from "./datasetSettings.js"
import { MissingLookupArgument } from "./Errors.js"
import { getById, notFound, parseId, quoted } from "./lookup.js"
import { sequenceOf } from "./sequence.js"
import { makeDiskTransfer } from "./transfer/disk.js"
import type { Transport } from "./Transport.js"
import type { WorkspaceInfo, WorkspaceRef, Workspaces } from "./Workspaces.js"

export interface DatasetLookup {
  readonly name?: string | undefined
  readonly id?: string | undefined
  readonly workspace?: WorkspaceRef | undefined
}

export const makeDatasets = (transport: Transport, workspaces: Workspaces, preferred: Option.Option<string>) => {
  const { api, call } = transport
  const datasetSettings = makeDatasetSettings(transport)
  const { create, withSettings } = datasetSettings
  // The Argilla SDK's export folder (`to_disk` / `from_disk`), both ways.
  const { fromDisk, toDisk } = makeDiskTransfer(transport, workspaces, datasetSettings)
  const listed = Effect.map(call(api.datasets.listMine({ urlParams: {} })), ({ items }) => items)
  const inWorkspace = (workspace: WorkspaceInfo) =>
    Effect.map(
      call(api.datasets.listMine({ urlParams: { workspace_id: workspace.id } })),
      ({ items }) => items.filter((dataset) => dataset.workspace_id === workspace.id)
    )

  /** The workspace a lookup or a new dataset goes to: the given one, the preferred one, else the first. */
  const targetWorkspace = (ref: WorkspaceRef | undefined) =>
    ref !== undefined
      ? workspaces.resolve(ref)
      : Option.match(preferred, { onNone: () => workspaces.default, onSome: workspaces.resolve })

  const byId = Effect.fn("GlossClient.datasets.byId")(function*(id: string) {
    const datasetId = yield* parseId(DatasetId, "Dataset", id)
    const found = yield* getById("Dataset", id, call(api.datasets.get({ path: { id: datasetId } })))
    return Option.isSome(found) ? Option.some(yield* withSettings(found.value)) : Option.none<Dataset>()
  })

  const byName = Effect.fn("GlossClient.datasets.byName")(function*(name: string, ref: WorkspaceRef | undefined) {
    const workspace = yield* targetWorkspace(ref)
    const found = Arr.findFirst(yield* inWorkspace(workspace), (dataset) => dataset.name === name)
    return Option.isSome(found)
      ? Option.some(yield* withSettings(found.value))
      : yield* notFound(`Dataset with name ${quoted(name)} not found in workspace ${quoted(workspace.name)}`)
  })

  const ofWorkspace = Effect.fn("GlossClient.datasets.ofWorkspace")(function*(ref: WorkspaceRef) {
    const workspace = yield* workspaces.resolve(ref)
    return yield* Effect.forEach(yield* inWorkspace(workspace), withSettings)
  })

  type LookupError =
    | MissingLookupArgument
    | Effect.Effect.Error<ReturnType<typeof byId>>
    | Effect.Effect.Error<ReturnType<typeof byName>>
    | Effect.Effect.Error<ReturnType<typeof ofWorkspace>>

  const lookup = (args: DatasetLookup): Effect.Effect<Option.Option<Dataset> | ReadonlyArray<Dataset>, LookupError> => {
    if (args.id !== undefined) {
      return Effect.zipRight(
        args.name === undefined
          ? Effect.void
          : Effect.logWarning("Only one of 'name' or 'id' must be provided. Using 'id'"),
        byId(args.id)
      )
    }
    if (args.name !== undefined) return byName(args.name, args.workspace)
    if (args.workspace !== undefined) return ofWorkspace(args.workspace)
    return Effect.fail(new MissingLookupArgument({ expected: "'name', 'id' or 'workspace'" }))
  }

  /** By id or name: one dataset or `None`; by workspace alone: all of its datasets. */
  function get(args: { readonly id: string; readonly name?: string; readonly workspace?: WorkspaceRef }): Effect.Effect<Option.Option<Dataset>, LookupError>
  function get(args: { readonly name: string; readonly workspace?: WorkspaceRef }): Effect.Effect<Option.Option<Dataset>, LookupError>
  function get(args: { readonly workspace: WorkspaceRef }): Effect.Effect<ReadonlyArray<Dataset>, LookupError>
  function get(args: DatasetLookup): Effect.Effect<Option.Option<Dataset> | ReadonlyArray<Dataset>, LookupError>
  function get(args: DatasetLookup): Effect.Effect<Option.Option<Dataset> | ReadonlyArray<Dataset>, LookupError> {
    return lookup(args).pipe(Effect.withSpan("GlossClient.datasets.get"))
  }

  const add = Effect.fn("GlossClient.datasets.add")(function*(draft: DatasetDraft) {
    const workspace = yield* targetWorkspace(draft.workspace)
    if (draft.workspace === undefined) {
      yield* Effect.logWarning(`Workspace not provided. Using default workspace: ${workspace.name} id: ${workspace.id}`)
    }
    return yield* create(draft, workspace)
  })

  const list = () => Effect.flatMap(listed, (items) => Effect.forEach(items, withSettings))

  return Object.assign(get, { get, list, add, toDisk, fromDisk, ...sequenceOf(listed, withSettings) })
}

export type Datasets = ReturnType<typeof makeDatasets>

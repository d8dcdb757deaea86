/**
 * What one caller sees of a dataset's records, for every read path (`GET /records/{id}`, the records list, both
 * searches and their filters and sorts, metadata properties and their metrics):
 *
 * - responses: everyone's to those granted `responses.readOthers` (owners, member admins); anyone else sees their
 *   own only. The caller-scoped search (`/me/.../records/search`) shows everyone their own only, as in Argilla.
 * - metadata: every key to those granted `metadata.readHidden` (owners, member admins); anyone else sees only the
 *   keys of properties marked `visible_for_annotators`: hidden properties and undeclared ("extra") keys are left
 *   out, and a search cannot filter or sort on them (they resolve as if they did not exist).
 * - suggestions, in a blind dataset (queue settings, src/services/assignment/): those not granted
 *   `responses.readOthers` see a record's suggestions only once they have submitted or discarded their own answer
 *   to it, and cannot search on suggestions; review reads (`annotating = false`) are not blind.
 */
import { Effect } from "effect"
import { Forbidden } from "../../domain/Errors.js"
import type { UserId } from "../../domain/Ids.js"
import type { User } from "../../domain/User.js"
import type { DatasetRow } from "./rows.js"
import { QueueSettingsRepo } from "./QueueSettingsRepo.js"
import { SettingsRepo } from "./SettingsRepo.js"
import { Policy } from "../Policy.js"
import type { IndexSchema } from "../search/Query.js"

export interface Viewer {
  /** Whose responses are shown: one user's, or everyone's when undefined. */
  readonly responsesOf: UserId | undefined
  /** The metadata keys shown: these property names, or every key (declared or not) when undefined. */
  readonly metadataKeys: ReadonlySet<string> | undefined
  /** Blind mode: suggestions are shown to this user only on records they have submitted or discarded. */
  readonly suggestionsHiddenFrom?: UserId | undefined
}

/**
 * Everything: for callers granted `records.write`, which Policy grants only where it grants `responses.readOthers`
 * and `metadata.readHidden` too (a test checks), so the bulk writes need not ask again.
 */
export const SEES_EVERYTHING: Viewer = { responsesOf: undefined, metadataKeys: undefined }

/** Whether a caller who may (or may not) read hidden metadata sees this property. */
export const propertyShown = (readsHidden: boolean) => (property: { readonly visible_for_annotators: boolean }) =>
  readsHidden || property.visible_for_annotators

/** A record's metadata as `viewer` sees it. */
export const shownMetadata = (
  viewer: Viewer,
  metadata: Readonly<Record<string, unknown>> | null
): Readonly<Record<string, unknown>> | null => {
  const keys = viewer.metadataKeys
  if (keys === undefined || metadata === null) return metadata
  return Object.fromEntries(Object.entries(metadata).filter(([key]) => keys.has(key)))
}

/** The schema a search by `viewer` resolves names against: properties it may not see do not exist for it. */
export const searchableBy = (viewer: Viewer, schema: IndexSchema): IndexSchema => {
  const keys = viewer.metadataKeys
  return keys === undefined
    ? schema
    : { ...schema, metadataProperties: schema.metadataProperties.filter((property) => keys.has(property.name)) }
}

export class Viewers extends Effect.Service<Viewers>()("Gloss/Viewers", {
  effect: Effect.gen(function*() {
    const policy = yield* Policy
    const settings = yield* SettingsRepo
    const queueSettings = yield* QueueSettingsRepo

    /** Whether `actor` sees the properties of `dataset` hidden from annotators. */
    const readsHiddenMetadata = (actor: User, dataset: DatasetRow) =>
      policy.can(actor, "metadata.readHidden", dataset.workspace_id)

    /** Fails with 403 unless `actor` sees `property` of `dataset` (to read it, or its metrics). */
    const requireShown = (actor: User, dataset: DatasetRow, property: { readonly visible_for_annotators: boolean }) =>
      Effect.flatMap(readsHiddenMetadata(actor, dataset), (readsHidden) =>
        propertyShown(readsHidden)(property) ? Effect.void : Effect.fail(Forbidden.operationNotAllowed()))

    /**
     * How `actor` sees the records of `dataset`; `mine` for the caller-scoped search; `annotating` false for review,
     * which blind mode does not apply to.
     */
    const of = Effect.fn("Viewers.of")(function*(actor: User, dataset: DatasetRow, mine = false, annotating = true) {
      const [readsOthers, readsHidden] = yield* Effect.all([
        policy.can(actor, "responses.readOthers", dataset.workspace_id),
        readsHiddenMetadata(actor, dataset)
      ])
      const viewer: Viewer = {
        responsesOf: mine || !readsOthers ? actor.id : undefined,
        metadataKeys: readsHidden
          ? undefined
          : new Set((yield* settings.metadataProperties.listByDataset(dataset.id)).filter(propertyShown(false)).map((p) => p.name)),
        suggestionsHiddenFrom: annotating && !readsOthers && (yield* queueSettings.of(dataset.id)).blind ? actor.id : undefined
      }
      return viewer
    })

    return { of, readsHiddenMetadata, requireShown } as const
  }),
  dependencies: [Policy.Default, SettingsRepo.Default, QueueSettingsRepo.Default]
}) {}

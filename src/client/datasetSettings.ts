/**
 * A dataset as the client hands it out: the dataset with its settings (fields, questions, metadata properties,
 * vector settings), and the SDK's creation sequence: draft, settings one by one, publish, fetch
 * again, and on any failure after the draft exists, delete it before failing.
 */
import { Effect } from "effect"
import type { Dataset as WireDataset } from "../domain/Dataset.js"
import type { Dataset, DatasetDraftOf } from "../transfer/dataset.js"
import type { Transport } from "./Transport.js"
import type { WorkspaceInfo, WorkspaceRef } from "./Workspaces.js"

export type { Dataset, DatasetSettings } from "../transfer/dataset.js"

export interface DatasetDraft extends DatasetDraftOf<WorkspaceRef> {}

export const makeDatasetSettings = ({ api, call }: Transport) => {
  /** The four settings lists, fetched together (metadata through `/me/…`, as the SDK does). */
  const withSettings = Effect.fn("GlossClient.datasets.withSettings")(function*(dataset: WireDataset) {
    const path = { path: { id: dataset.id } }
    const { fields, questions, metadata, vectors } = yield* Effect.all({
      fields: call(api.fields.list(path)),
      questions: call(api.questions.list(path)),
      metadata: call(api.metadataProperties.listMine(path)),
      vectors: call(api.vectorSettings.list(path))
    }, { concurrency: "unbounded" })
    const full: Dataset = {
      ...dataset,
      settings: { fields: fields.items, questions: questions.items, metadata: metadata.items, vectors: vectors.items }
    }
    return full
  })

  const create = Effect.fn("GlossClient.datasets.create")(function*(draft: DatasetDraft, workspace: WorkspaceInfo) {
    const { settings, workspace: _, ...attributes } = draft
    const dataset = yield* call(api.datasets.create({ payload: { ...attributes, workspace_id: workspace.id } }))
    const path = { path: { id: dataset.id } }
    const configure = Effect.gen(function*() {
      for (const field of settings.fields) yield* call(api.fields.create({ ...path, payload: field }))
      for (const question of settings.questions) yield* call(api.questions.create({ ...path, payload: question }))
      for (const vector of settings.vectors ?? []) yield* call(api.vectorSettings.create({ ...path, payload: vector }))
      for (const property of settings.metadata ?? []) {
        yield* call(api.metadataProperties.create({ ...path, payload: property }))
      }
      return yield* withSettings(yield* call(api.datasets.publish(path)))
    })
    return yield* configure.pipe(
      Effect.tapError(() =>
        Effect.logWarning(`Dataset ${dataset.name} could not be configured and published: deleting the draft`).pipe(
          Effect.zipRight(call(api.datasets.delete(path))),
          // The configuration error is the one to report; a failed clean-up is only worth a warning.
          Effect.catchAll((error) => Effect.logWarning(`Deleting the draft dataset ${dataset.id} failed`, error))
        )
      )
    )
  })

  return { withSettings, create }
}

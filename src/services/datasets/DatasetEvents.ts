/**
 * The `dataset.*` events and the dataset `data` every event carries, in Argilla's shapes, built from rows at the
 * moment of the change, already in their JSON form since they go straight into the outbox as text.
 */
import { Effect, Option } from "effect"
import type { DatasetEventData } from "../../domain/Event.js"
import type { WebhookEventType } from "../../domain/Webhook.js"
import { Events, naive, stamps } from "../webhooks/Events.js"
import { WorkspacesRepo } from "../workspaces/WorkspacesRepo.js"
import type { DatasetRow } from "./rows.js"
import { SettingsRepo } from "./SettingsRepo.js"

export type DatasetEventType = Extract<WebhookEventType, `dataset.${string}`>
export type DatasetData = typeof DatasetEventData.Encoded

export class DatasetEvents extends Effect.Service<DatasetEvents>()("Gloss/DatasetEvents", {
  effect: Effect.gen(function*() {
    const events = yield* Events
    const settings = yield* SettingsRepo
    const workspaces = yield* WorkspacesRepo

    /** The dataset with its workspace and settings (five reads; done once per change, not per record). */
    const data = Effect.fn("DatasetEvents.data")(function*(row: DatasetRow) {
      const [workspace, fields, questions, metadataProperties, vectorSettings] = yield* Effect.all([
        workspaces.findById(row.workspace_id),
        settings.fields.listByDataset(row.id),
        settings.questions.listByDataset(row.id),
        settings.metadataProperties.listByDataset(row.id),
        settings.vectorSettings.listByDataset(row.id)
      ])
      // The foreign key keeps a dataset's workspace in place while the dataset exists.
      const w = yield* Option.match(workspace, {
        onNone: () => Effect.dieMessage(`Workspace ${row.workspace_id} of dataset ${row.id} is missing`),
        onSome: Effect.succeed
      })
      const data: DatasetData = {
        id: row.id,
        name: row.name,
        guidelines: row.guidelines,
        allow_extra_metadata: row.allow_extra_metadata,
        status: row.status,
        distribution: row.distribution,
        workspace: { id: w.id, name: w.name, ...stamps(w) },
        questions: questions.map((q) => ({
          id: q.id,
          name: q.name,
          title: q.title,
          description: q.description,
          required: q.required,
          settings: q.settings,
          ...stamps(q)
        })),
        fields: fields.map((f) => ({ id: f.id, name: f.name, title: f.title, required: f.required, settings: f.settings, ...stamps(f) })),
        metadata_properties: metadataProperties.map((m) => ({
          id: m.id,
          name: m.name,
          title: m.title,
          settings: m.settings,
          visible_for_annotators: m.visible_for_annotators,
          ...stamps(m)
        })),
        vectors_settings: vectorSettings.map((v) => ({ id: v.id, name: v.name, title: v.title, dimensions: v.dimensions, ...stamps(v) })),
        last_activity_at: naive(row.last_activity_at),
        ...stamps(row)
      }
      return data
    })

    /** Call inside the change's transaction (see `webhooks/Events.ts`). */
    const dataset = Effect.fn("DatasetEvents.dataset")(function*(type: DatasetEventType, row: DatasetRow) {
      if (!(yield* events.wants(type))) return
      yield* events.write([{ type, data: yield* data(row) }])
    })

    return { dataset, data } as const
  }),
  dependencies: [Events.Default, SettingsRepo.Default, WorkspacesRepo.Default]
}) {}

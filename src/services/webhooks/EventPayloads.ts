/**
 * The `data` of events (reference §6.3), built from rows at the moment of the change, already in their JSON form
 * (timestamps as naive UTC strings) since they go straight into the outbox as text.
 */
import { Effect, Option } from "effect"
import type { DatasetEventData, RecordEventData, ResponseEventData } from "../../domain/Event.js"
import type { UserId } from "../../domain/Ids.js"
import type { DatasetRow } from "../datasets/rows.js"
import { SettingsRepo } from "../datasets/SettingsRepo.js"
import type { RecordRow, ResponseRow } from "../records/rows.js"
import { type UserRow, UsersRepo } from "../users/UsersRepo.js"
import { WorkspacesRepo } from "../workspaces/WorkspacesRepo.js"

export type DatasetData = typeof DatasetEventData.Encoded
export type RecordData = typeof RecordEventData.Encoded
export type ResponseData = typeof ResponseEventData.Encoded

/** As the `Timestamp` schema encodes: ISO-8601 without the zone suffix. */
const naive = (at: Date): string => at.toISOString().slice(0, -1)

const stamps = (row: { readonly inserted_at: Date; readonly updated_at: Date }) => ({
  inserted_at: naive(row.inserted_at),
  updated_at: naive(row.updated_at)
})

export const recordData = (dataset: DatasetData, row: RecordRow): RecordData => ({
  id: row.id,
  status: row.status,
  fields: row.fields,
  metadata: row.metadata,
  external_id: row.external_id,
  dataset,
  ...stamps(row)
})

export const responseData = (row: ResponseRow, record: RecordData, user: UserRow): ResponseData => ({
  id: row.id,
  values: row.values,
  status: row.status,
  record,
  user: {
    id: user.id,
    first_name: user.first_name,
    last_name: user.last_name,
    username: user.username,
    role: user.role,
    ...stamps(user)
  },
  ...stamps(row)
})

export class EventPayloads extends Effect.Service<EventPayloads>()("Gloss/EventPayloads", {
  effect: Effect.gen(function*() {
    const settings = yield* SettingsRepo
    const workspaces = yield* WorkspacesRepo
    const users = yield* UsersRepo

    /** The dataset with its workspace and settings (five reads; done once per change, not per record). */
    const dataset = Effect.fn("EventPayloads.dataset")(function*(row: DatasetRow) {
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

    return { dataset, user: (id: UserId) => users.findById(id) } as const
  }),
  dependencies: [SettingsRepo.Default, WorkspacesRepo.Default, UsersRepo.Default]
}) {}

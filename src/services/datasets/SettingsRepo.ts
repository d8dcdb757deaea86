import { Effect } from "effect"
import { Database } from "../database/Database.js"
import { ownedRows } from "./OwnedRows.js"
import { FieldRow, MetadataPropertyRow, QuestionRow, VectorSettingsRow } from "./rows.js"

/** The tables of a dataset's settings. */
export class SettingsRepo extends Effect.Service<SettingsRepo>()("Gloss/SettingsRepo", {
  effect: Effect.gen(function*() {
    return {
      fields: yield* ownedRows("fields", FieldRow),
      questions: yield* ownedRows("questions", QuestionRow),
      metadataProperties: yield* ownedRows("metadata_properties", MetadataPropertyRow),
      vectorSettings: yield* ownedRows("vectors_settings", VectorSettingsRow)
    } as const
  }),
  dependencies: [Database.Default]
}) {}

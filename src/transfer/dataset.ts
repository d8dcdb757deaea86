/**
 * A dataset with its settings, as the client hands it out and as the server's export job reads it: the shape every
 * transfer format (disk, Hub) is written from and read into.
 */
import type { Dataset as WireDataset, DatasetCreate } from "../domain/Dataset.js"
import type { Field, FieldCreate } from "../domain/Field.js"
import type { MetadataProperty, MetadataPropertyCreate } from "../domain/MetadataProperty.js"
import type { Question, QuestionCreate } from "../domain/Question.js"
import type { VectorSettings, VectorSettingsCreate } from "../domain/VectorSettings.js"

export interface DatasetSettings {
  readonly fields: ReadonlyArray<Field>
  readonly questions: ReadonlyArray<Question>
  readonly metadata: ReadonlyArray<MetadataProperty>
  readonly vectors: ReadonlyArray<VectorSettings>
}

/** The wire dataset (snake_case, as the API sends it) plus its settings. */
export interface Dataset extends WireDataset {
  readonly settings: DatasetSettings
}

/** A dataset to create with its settings; `W` is how the workspace is named (the client also takes its info). */
export interface DatasetDraftOf<W> extends Omit<DatasetCreate, "workspace_id" | "id"> {
  /** Default: the client's preferred workspace, else `workspaces.default`. */
  readonly workspace?: W | undefined
  /** At least one field and one question, as publishing requires. */
  readonly settings: {
    readonly fields: ReadonlyArray<FieldCreate>
    readonly questions: ReadonlyArray<QuestionCreate>
    readonly metadata?: ReadonlyArray<MetadataPropertyCreate> | undefined
    readonly vectors?: ReadonlyArray<VectorSettingsCreate> | undefined
  }
}

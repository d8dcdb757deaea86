/**
 * An Argilla deployment as the migration reads it, whatever the source (its database or its REST API): one row type
 * per kind, with ids as dashed lowercase UUIDs, timestamps as Dates, JSON parsed and vectors as numbers. Sources
 * produce these; the writer stores them in Gloss's tables (which keep Argilla's layout, so nearly every column
 * carries over as is) and the verifier digests them.
 */

export interface Stamped {
  readonly id: string
  readonly inserted_at: Date
  readonly updated_at: Date
}

export type Role = "owner" | "admin" | "annotator"

export interface UserRow extends Stamped {
  readonly username: string
  readonly first_name: string
  readonly last_name: string | null
  readonly role: Role
  /** bcrypt (`$2b$`), as Argilla keeps it; null when the source cannot read it (the REST API). */
  readonly password_hash: string | null
  readonly api_key: string
}

export interface WorkspaceRow extends Stamped {
  readonly name: string
}

export interface MembershipRow extends Stamped {
  readonly workspace_id: string
  readonly user_id: string
}

export interface DatasetRow extends Stamped {
  readonly name: string
  readonly guidelines: string | null
  readonly allow_extra_metadata: boolean
  readonly status: "draft" | "ready"
  readonly distribution: unknown
  readonly metadata: unknown
  readonly workspace_id: string
  readonly last_activity_at: Date
}

/** Fields, questions, metadata properties and vector settings: what a dataset's settings are made of. */
export interface FieldRow extends Stamped {
  readonly dataset_id: string
  readonly name: string
  readonly title: string
  readonly required: boolean
  readonly settings: unknown
}

export interface QuestionRow extends FieldRow {
  readonly description: string | null
}

export interface MetadataPropertyRow extends Stamped {
  readonly dataset_id: string
  readonly name: string
  readonly title: string
  readonly settings: unknown
  /** Argilla keeps the roles that see a property; Gloss keeps whether annotators do (admins and owners always do). */
  readonly allowed_roles: ReadonlyArray<string>
}

export interface VectorSettingsRow extends Stamped {
  readonly dataset_id: string
  readonly name: string
  readonly title: string
  readonly dimensions: number
}

export interface RecordRow extends Stamped {
  readonly dataset_id: string
  readonly external_id: string | null
  readonly fields: unknown
  readonly metadata: unknown
  readonly status: "pending" | "completed"
}

export interface ResponseRow extends Stamped {
  readonly record_id: string
  readonly user_id: string
  readonly values: unknown
  readonly status: "draft" | "submitted" | "discarded"
}

export interface SuggestionRow extends Stamped {
  readonly record_id: string
  readonly question_id: string
  readonly value: unknown
  readonly score: unknown
  readonly agent: string | null
  readonly type: "model" | "human" | null
}

export interface VectorRow extends Stamped {
  readonly record_id: string
  readonly vector_settings_id: string
  readonly value: ReadonlyArray<number>
}

/** Who has answered in a dataset (Argilla's `datasets_users`); keyed by the pair, so its id is `dataset:user`. */
export interface DatasetUserRow extends Stamped {
  readonly dataset_id: string
  readonly user_id: string
}

export interface WebhookRow extends Stamped {
  readonly url: string
  readonly secret: string
  readonly events: ReadonlyArray<string>
  readonly enabled: boolean
  readonly description: string | null
}

/** A page of records with everything that hangs off them. */
export interface RecordPage {
  readonly records: ReadonlyArray<RecordRow>
  readonly responses: ReadonlyArray<ResponseRow>
  readonly suggestions: ReadonlyArray<SuggestionRow>
  readonly vectors: ReadonlyArray<VectorRow>
}

/** The settings of one dataset. */
export interface DatasetSettings {
  readonly fields: ReadonlyArray<FieldRow>
  readonly questions: ReadonlyArray<QuestionRow>
  readonly metadataProperties: ReadonlyArray<MetadataPropertyRow>
  readonly vectorSettings: ReadonlyArray<VectorSettingsRow>
}

/** The kinds the report counts, in the order they are migrated. */
export const KINDS = [
  "users",
  "workspaces",
  "memberships",
  "datasets",
  "fields",
  "questions",
  "metadata properties",
  "vector settings",
  "records",
  "responses",
  "suggestions",
  "vectors",
  "dataset users",
  "webhooks"
] as const
export type Kind = typeof KINDS[number]

/** The kinds that hang off a record. */
export type RecordChild = "responses" | "suggestions" | "vectors"

/**
 * What record validation needs to know about a dataset, loaded once per request. The validators are pure
 * functions of this context and the values sent: each returns `Either.right(undefined)` when the value is
 * acceptable, else `Either.left(message)` with a message that names the offending field, key or value. Callers add
 * where the value was (e.g. "Record at position 3 is not valid because <message>").
 */
import type { DatasetId, QuestionId } from "../../../domain/Ids.js"
import type { FieldSettings } from "../../../domain/Field.js"
import type { MetadataSettings } from "../../../domain/MetadataProperty.js"
import type { QuestionSettings } from "../../../domain/Question.js"

export interface FieldSpec {
  readonly name: string
  readonly required: boolean
  readonly settings: FieldSettings
}

export interface QuestionSpec {
  readonly id: QuestionId
  readonly name: string
  readonly required: boolean
  readonly settings: QuestionSettings
}

export interface MetadataSpec {
  readonly name: string
  readonly settings: MetadataSettings
}

export interface VectorSpec {
  readonly name: string
  readonly dimensions: number
}

/** Chat message bounds from configuration (GLOSS_MIN/MAX_MESSAGE_LENGTH, GLOSS_MIN/MAX_ROLE_LENGTH). */
export interface ChatLimits {
  readonly minMessageLength: number
  readonly maxMessageLength: number
  readonly minRoleLength: number
  readonly maxRoleLength: number
}

export interface ValidationContext {
  readonly datasetId: DatasetId
  readonly allowExtraMetadata: boolean
  readonly fields: ReadonlyArray<FieldSpec>
  readonly questions: ReadonlyArray<QuestionSpec>
  readonly metadataProperties: ReadonlyArray<MetadataSpec>
  readonly vectorSettings: ReadonlyArray<VectorSpec>
  readonly limits: ChatLimits
}

/** How strictly an answer is checked: drafts may be partial, suggestions skip the "submitted" ranking rules. */
export type AnswerMode = "draft" | "submitted" | "suggestion"

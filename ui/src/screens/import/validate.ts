/**
 * Whether a row's record would be accepted, checked in the browser before anything is sent, and the tally of the
 * rows that would not. The checks are the server's own (`src/services/records/validation/`: pure functions of the
 * dataset's settings), imported rather than rewritten, so the preview rejects exactly what the bulk write would and
 * says it in the server's words: suggestions and responses against their question's kind and options (a rating's
 * range, a label's options, a ranking's values, spans within the text), scores from 0 to 1, agents' characters,
 * vectors against their settings' dimensions, and metadata against its property's type, range and terms.
 */
import { Either } from "effect"
import type { MetadataProperty } from "../../../../src/domain/MetadataProperty.js"
import type { Question } from "../../../../src/domain/Question.js"
import type { VectorSettings } from "../../../../src/domain/VectorSettings.js"
import type { ValidationContext } from "../../../../src/services/records/validation/context.js"
import { validateMetadata } from "../../../../src/services/records/validation/metadata.js"
import { validateResponseValues } from "../../../../src/services/records/validation/responses.js"
import { validateSuggestion } from "../../../../src/services/records/validation/suggestions.js"
import { validateVectors } from "../../../../src/services/records/validation/vectors.js"
import type { ImportRecord } from "./mapping.js"

export interface CheckSettings {
  readonly metadata: ReadonlyArray<Pick<MetadataProperty, "name" | "settings">>
  readonly questions: ReadonlyArray<Pick<Question, "id" | "name" | "required" | "settings">>
  readonly vectorSettings: ReadonlyArray<Pick<VectorSettings, "name" | "dimensions">>
}

/**
 * The context the server's validators read. Fields and chat limits are not used by the checks made here, and the
 * dataset id only names the dataset when a vector has no settings, which a mapping (built from the settings) never
 * produces.
 */
const contextOf = (settings: CheckSettings): ValidationContext => ({
  datasetId: "" as ValidationContext["datasetId"],
  allowExtraMetadata: false,
  fields: [],
  questions: settings.questions,
  metadataProperties: settings.metadata,
  vectorSettings: settings.vectorSettings,
  limits: { minMessageLength: 0, maxMessageLength: Number.MAX_SAFE_INTEGER, minRoleLength: 0, maxRoleLength: Number.MAX_SAFE_INTEGER }
})

/** Why the server would refuse `record`, or `undefined` when it would take it. */
export const checkRecord = (record: ImportRecord, settings: CheckSettings): string | undefined => {
  const ctx = contextOf(settings)
  const problem = (check: Either.Either<void, string>) => (Either.isLeft(check) ? check.left : undefined)
  if (record.metadata !== undefined) {
    const found = problem(validateMetadata(ctx, record.metadata))
    if (found !== undefined) return found
  }
  for (const suggestion of record.suggestions ?? []) {
    const question = settings.questions.find((q) => q.id === suggestion.question_id)
    if (question === undefined) continue
    const found = problem(validateSuggestion(question, suggestion.value, suggestion.score, record.fields, suggestion.agent))
    if (found !== undefined) return `suggestion: ${found}`
  }
  for (const response of record.responses ?? []) {
    const found = problem(validateResponseValues(ctx, response.status, response.values, record.fields))
    if (found !== undefined) return `response: ${found}`
  }
  if (record.vectors !== undefined) {
    const found = problem(validateVectors(ctx, record.vectors))
    if (found !== undefined) return found
  }
  return undefined
}

/** A rejected row: its line (data rows from 1) and why. */
export interface RowRejection {
  readonly line: number
  readonly reason: string
}

/** How many rows of a file were checked, would be imported and would be rejected, with the first rejections. */
export interface RowTally {
  readonly checked: number
  readonly valid: number
  readonly rejected: number
  readonly first: ReadonlyArray<RowRejection>
}

export const EMPTY_TALLY: RowTally = { checked: 0, valid: 0, rejected: 0, first: [] }

/** How many rejected rows the preview lists; the rest are counted. */
export const MAX_LISTED = 20

/** The tally with one more row: `undefined` when it would be imported, else why not. */
export const tallyRow = (tally: RowTally, line: number, problem: string | undefined): RowTally =>
  problem === undefined
    ? { ...tally, checked: tally.checked + 1, valid: tally.valid + 1 }
    : {
      checked: tally.checked + 1,
      valid: tally.valid,
      rejected: tally.rejected + 1,
      first: tally.first.length < MAX_LISTED ? [...tally.first, { line, reason: problem }] : tally.first
    }

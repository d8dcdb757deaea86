/**
 * Turns a bulk create/upsert payload into the rows to write, or the first reason it cannot be written. Pure: the
 * caller looks up what already exists, then writes the plan in one transaction, so an invalid payload writes
 * nothing.
 */
import { Either } from "effect"
import { firstRepeated } from "../../../domain/Common.js"
import { RecordId, ResponseId, type UserId, type VectorSettingsId } from "../../../domain/Ids.js"
import type { RecordUpsert } from "../../../domain/Record.js"
import type { RecordRow } from "../../../codecs/recordRows.js"
import type { ResponseRow, SuggestionRow, VectorRow } from "../rows.js"
import { suggestionRows } from "../suggestionRows.js"
import type { ValidationContext } from "../validation/context.js"
import { validateRecordFields } from "../validation/fields.js"
import { validateMetadata } from "../validation/metadata.js"
import { validateResponseValues } from "../validation/responses.js"
import { validateVectors } from "../validation/vectors.js"

export interface Known {
  /** Records of this dataset, by external id and by id. */
  readonly byExternalId: ReadonlyMap<string, RecordRow>
  readonly byId: ReadonlyMap<string, RecordRow>
  /** Ids taken by records of other datasets: a new record that names one gets a new id. */
  readonly elsewhere: ReadonlySet<string>
  readonly users: ReadonlySet<string>
}

export interface Plan {
  /** Every record of the payload, in payload order. */
  readonly order: ReadonlyArray<RecordId>
  readonly inserts: ReadonlyArray<RecordRow>
  readonly updates: ReadonlyArray<RecordRow>
  readonly responses: ReadonlyArray<ResponseRow>
  readonly suggestions: ReadonlyArray<SuggestionRow>
  readonly vectors: ReadonlyArray<VectorRow>
  /** Existing records whose responses changed: their status is recomputed after writing. */
  readonly recompute: ReadonlyArray<RecordId>
  readonly respondents: ReadonlyArray<UserId>
}

export interface PlanInput {
  readonly mode: "create" | "upsert"
  readonly items: ReadonlyArray<RecordUpsert>
  readonly context: ValidationContext
  readonly minSubmitted: number
  readonly vectorIds: ReadonlyMap<string, VectorSettingsId>
  readonly known: Known
  readonly now: Date
  readonly newId: () => string
}

const at = (position: number, reason: string) => `Record at position ${position} is not valid because ${reason}`

export const plan = (input: PlanInput): Either.Either<Plan, string> => {
  const { context, known, now } = input
  const externalIds = input.items.flatMap((item) => (item.external_id == null ? [] : [item.external_id]))
  const sameExternalId = firstRepeated(input.items, (item) => item.external_id ?? undefined)
  if (sameExternalId !== undefined) {
    const { first, key, second } = sameExternalId
    return Either.left(`External IDs must be unique: items ${first} and ${second} have the same external_id \`${key}\``)
  }
  // Two items with one id would both be written to one record: refused, rather than a conflict in the database.
  const sameId = firstRepeated(input.items, (item) => item.id ?? undefined)
  if (sameId !== undefined) {
    return Either.left(`items ${sameId.first} and ${sameId.second} have the same id \`${sameId.key}\``)
  }
  if (input.mode === "create") {
    const stored = externalIds.filter((id) => known.byExternalId.has(id))
    if (stored.length > 0) return Either.left(`found records with same external ids: ${stored.join(", ")}`)
  }
  const result: { -readonly [K in keyof Plan]: Array<Plan[K][number]> } = {
    order: [],
    inserts: [],
    updates: [],
    responses: [],
    suggestions: [],
    vectors: [],
    recompute: [],
    respondents: []
  }
  const respondents = new Set<UserId>()
  const positions = new Map<string, number>()
  for (const [position, item] of input.items.entries()) {
    const existing = (item.external_id == null ? undefined : known.byExternalId.get(item.external_id)) ??
      (item.id == null ? undefined : known.byId.get(item.id))
    const fields = existing?.fields ?? item.fields ?? {}
    const checks = [
      existing === undefined ? validateRecordFields(context, fields, "create") : Either.void,
      item.metadata == null ? Either.void : validateMetadata(context, item.metadata),
      item.vectors == null ? Either.void : validateVectors(context, item.vectors)
    ]
    const failed = checks.find(Either.isLeft)
    if (failed !== undefined) return Either.left(at(position, failed.left))
    // A client's id is kept while it is free. One taken by another dataset's record (a dataset exported and imported
    // on the same server) gets a new record with a new id instead, as Argilla always issues its own.
    const recordId = existing?.id ??
      (item.id != null && !known.elsewhere.has(item.id) ? item.id : RecordId.make(input.newId()))
    // One item matched by external id, another by id: both would update the same stored record.
    const earlier = positions.get(recordId)
    if (earlier !== undefined) return Either.left(`items ${earlier} and ${position} are the same record \`${recordId}\``)
    positions.set(recordId, position)

    const users = new Set<string>()
    let submitted = 0
    for (const response of item.responses ?? []) {
      if (users.has(response.user_id)) {
        return Either.left(at(position, `it has more than one response for the user with id \`${response.user_id}\``))
      }
      users.add(response.user_id)
      if (!known.users.has(response.user_id)) {
        return Either.left(at(position, `user with id \`${response.user_id}\` not found`))
      }
      const valid = validateResponseValues(context, response.status, response.values ?? null, fields)
      if (Either.isLeft(valid)) return Either.left(at(position, valid.left))
      if (response.status === "submitted") submitted++
      respondents.add(response.user_id)
      result.responses.push({
        id: ResponseId.make(input.newId()),
        record_id: recordId,
        user_id: response.user_id,
        values: response.values ?? null,
        status: response.status,
        inserted_at: now,
        updated_at: now
      })
    }

    const suggestions = suggestionRows(context, recordId, fields, item.suggestions ?? [], now)
    if (Either.isLeft(suggestions)) return Either.left(at(position, suggestions.left))
    result.suggestions.push(...suggestions.right)

    for (const [name, value] of Object.entries(item.vectors ?? {})) {
      const settingsId = input.vectorIds.get(name)
      // validateVectors has checked every name; this only narrows the type.
      if (settingsId === undefined) return Either.left(at(position, `vector \`${name}\` is not defined for the dataset`))
      result.vectors.push({
        id: input.newId(),
        record_id: recordId,
        vector_settings_id: settingsId,
        value,
        inserted_at: now,
        updated_at: now
      })
    }

    result.order.push(recordId)
    if (existing === undefined) {
      result.inserts.push({
        id: recordId,
        dataset_id: context.datasetId,
        external_id: item.external_id ?? null,
        fields,
        metadata: item.metadata ?? null,
        status: submitted >= input.minSubmitted ? "completed" : "pending",
        inserted_at: now,
        updated_at: now
      })
    } else {
      // Fields of a stored record never change; metadata is replaced only when the key is sent.
      result.updates.push({ ...existing, metadata: item.metadata === undefined ? existing.metadata : item.metadata, updated_at: now })
      if ((item.responses ?? []).length > 0) result.recompute.push(recordId)
    }
  }
  return Either.right({ ...result, respondents: [...respondents] })
}

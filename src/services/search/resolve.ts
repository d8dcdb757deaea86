/**
 * Turns the API's search body into the engine model, resolving every name against the dataset. Pure: the messages
 * are the contract's 422s, with Argilla's messages.
 */
import { Either } from "effect"
import type { RecordId, UserId } from "../../domain/Ids.js"
import type { Filter, Scope, SearchRecordsQuery } from "../../domain/Search.js"
import type { IndexSchema, ResolvedScope, SearchFilter, SearchQuery, SearchSort } from "./Query.js"

export interface ResolveInput {
  readonly schema: IndexSchema
  readonly datasetName: string
  readonly body: SearchRecordsQuery
  readonly offset: number
  readonly limit: number
  readonly user?: UserId | undefined
  /** The vector of the reference record of a search by `record_id`, once looked up. */
  readonly referenceVector?: ReadonlyArray<number> | undefined
}

export const resolveScope = (schema: IndexSchema, scope: Scope): Either.Either<ResolvedScope, string> => {
  switch (scope.entity) {
    case "record":
      return Either.right({ kind: "record", property: scope.property })
    case "metadata": {
      const property = schema.metadataProperties.find((p) => p.name === scope.metadata_property)
      return property === undefined
        ? Either.left(`MetadataProperty not found filtering by name=${scope.metadata_property}`)
        : Either.right({ kind: "metadata", name: property.name, type: property.settings.type })
    }
    case "suggestion": {
      const question = schema.questions.find((q) => q.name === scope.question)
      return question === undefined
        ? Either.left(`Question not found filtering by name=${scope.question}`)
        : Either.right({
          kind: "suggestion",
          questionId: question.id,
          question: question.name,
          questionType: question.settings.type,
          property: scope.property ?? "value"
        })
    }
    case "response": {
      if (scope.question != null) {
        const question = schema.questions.find((q) => q.name === scope.question)
        return question === undefined
          ? Either.left(`Question not found filtering by name=${scope.question}`)
          : Either.right({ kind: "responseValue", question: question.name, questionType: question.settings.type })
      }
      return scope.property === "status"
        ? Either.right({ kind: "responseStatus" })
        : Either.left("a response scope needs a question or property: status")
    }
  }
}

const resolveFilter = (schema: IndexSchema, filter: Filter): Either.Either<SearchFilter, string> =>
  Either.map(resolveScope(schema, filter.scope), (scope): SearchFilter =>
    filter.type === "terms"
      ? { kind: "terms", scope, values: filter.values }
      : { kind: "range", scope, ge: filter.ge ?? undefined, le: filter.le ?? undefined })

/** The reference record of a vector search, when there is one, and whether the body names exactly one source. */
export const vectorReference = (body: SearchRecordsQuery): Either.Either<RecordId | undefined, string> => {
  const vector = body.query?.vector
  if (vector == null) return Either.right(undefined)
  const byRecord = vector.record_id != null
  const byValue = vector.value != null
  if (byRecord === byValue) return Either.left("a vector query needs exactly one of 'record_id' and 'value'")
  return Either.right(vector.record_id ?? undefined)
}

export const resolveQuery = (input: ResolveInput): Either.Either<SearchQuery, string> =>
  Either.gen(function*() {
    const { body, datasetName, schema } = input
    const text = body.query?.text ?? undefined
    if (text?.field != null && !schema.fields.some((f) => f.name === text.field)) {
      return yield* Either.left(`Field '${text.field}' not found in dataset '${datasetName}'`)
    }
    const vectorQuery = body.query?.vector ?? undefined
    let vector: SearchQuery["vector"]
    if (vectorQuery !== undefined) {
      const settings = schema.vectorSettings.find((v) => v.name === vectorQuery.name)
      if (settings === undefined) return yield* Either.left(`Vector '${vectorQuery.name}' not found in dataset '${datasetName}'`)
      yield* vectorReference(body)
      const value = vectorQuery.value ?? input.referenceVector
      if (value === undefined) return yield* Either.left("a vector query needs exactly one of 'record_id' and 'value'")
      if (value.length !== settings.dimensions) {
        return yield* Either.left(`Vector '${settings.name}' has ${settings.dimensions} dimensions, the query vector has ${value.length}`)
      }
      vector = {
        vectorSettingsId: settings.id,
        name: settings.name,
        value,
        order: vectorQuery.order ?? "most_similar",
        excludeRecordId: vectorQuery.record_id ?? undefined
      }
    }
    const filters: Array<SearchFilter> = []
    for (const filter of body.filters?.and ?? []) filters.push(yield* resolveFilter(schema, filter))
    const sort: Array<SearchSort> = []
    for (const order of body.sort ?? []) {
      sort.push({ scope: yield* resolveScope(schema, order.scope), order: order.order ?? "asc" })
    }
    return {
      text: text === undefined ? undefined : { q: text.q, field: text.field ?? undefined },
      vector,
      filters,
      sort,
      offset: input.offset,
      limit: input.limit,
      user: input.user
    }
  })

/**
 * The document a record is indexed as (`_id` = record id). Only what the mapping declares goes in: declared fields,
 * metadata properties, questions and vector settings; anything else would be refused by the strict mapping.
 */
import type { FieldSettings } from "../../../domain/Field.js"
import type { ResponseValues } from "../../../domain/Response.js"
import type { IndexedRecord, IndexSchema } from "../Query.js"

export type Document = { readonly [key: string]: unknown }

const chatMessages = (value: unknown): ReadonlyArray<Document> =>
  Array.isArray(value)
    ? value.flatMap((message: unknown) =>
      typeof message === "object" && message !== null
        ? [{
          role: "role" in message ? message.role : null,
          content: "content" in message ? message.content : null
        }]
        : []
    )
    : []

/** Image values are never stored: their mapping is not indexed and the record in the database has them. */
const fieldValue = (settings: FieldSettings, value: unknown): unknown => {
  switch (settings.type) {
    case "text":
      return value
    case "chat":
      return chatMessages(value)
    case "custom":
      return typeof value === "string" ? value : JSON.stringify(value)
    case "image":
      return null
  }
}

const present = (value: unknown) => value !== undefined && value !== null

const answers = (schema: IndexSchema, values: ResponseValues | null): Document =>
  Object.fromEntries(
    schema.questions.flatMap(({ name }) => {
      const answer = values?.[name]
      return answer !== undefined && present(answer.value) ? [[name, answer.value]] : []
    })
  )

export const toDocument = (schema: IndexSchema, record: IndexedRecord): Document => {
  const questionNames = new Map(schema.questions.map((q) => [q.id, q.name]))
  return {
    id: record.id,
    external_id: record.external_id,
    status: record.status,
    inserted_at: record.inserted_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
    fields: Object.fromEntries(
      schema.fields.flatMap(({ name, settings }) =>
        present(record.fields[name]) ? [[name, fieldValue(settings, record.fields[name])]] : []
      )
    ),
    metadata: Object.fromEntries(
      schema.metadataProperties.flatMap(({ name }) =>
        record.metadata !== null && present(record.metadata[name]) ? [[name, record.metadata[name]]] : []
      )
    ),
    responses: record.responses.map((response) => ({
      id: response.id,
      status: response.status,
      user_id: response.user_id,
      values: answers(schema, response.values)
    })),
    suggestions: Object.fromEntries(
      record.suggestions.flatMap((suggestion) => {
        const name = questionNames.get(suggestion.question_id)
        return name === undefined ? [] : [[name, {
          value: suggestion.value,
          score: suggestion.score,
          agent: suggestion.agent,
          type: suggestion.type
        }]]
      })
    ),
    vectors: Object.fromEntries(
      schema.vectorSettings.flatMap(({ id }) => {
        const vector = record.vectors[id]
        return vector === undefined ? [] : [[id, vector]]
      })
    )
  }
}

/** The text a record contributes to full-text search, per field: what users can find it by. */
import { searchTerms } from "../../../domain/Search.js"
import type { IndexedRecord, IndexSchema } from "../Query.js"

const chatText = (value: unknown): string =>
  Array.isArray(value)
    ? value.map((message: unknown) =>
      typeof message === "object" && message !== null && "content" in message && typeof message.content === "string"
        ? message.content
        : ""
    ).join("\n")
    : ""

/** What a field's value contributes to search: text as is, chat messages' contents, custom values as JSON. */
export const searchableText = (field: IndexSchema["fields"][number], value: unknown): string | null => {
  if (value === null || value === undefined) return null
  switch (field.settings.type) {
    case "text":
      return typeof value === "string" ? value : null
    case "chat":
      return chatText(value)
    case "custom":
      return JSON.stringify(value)
    case "image":
      return null
  }
}

/** One entry per searchable field that has a value. */
export const searchableTexts = (schema: IndexSchema, record: IndexedRecord): ReadonlyArray<{ field: string; text: string }> =>
  schema.fields.flatMap((field) => {
    const text = searchableText(field, record.fields[field.name])
    return text === null ? [] : [{ field: field.name, text }]
  })

/** The words of a query, for engines that take terms rather than a query language: those the text limit counts. */
export const queryTerms = searchTerms

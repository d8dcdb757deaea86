/** The text a record contributes to full-text search, per field: what users can find it by. */
import type { IndexedRecord, IndexSchema } from "../Query.js"

const chatText = (value: unknown): string =>
  Array.isArray(value)
    ? value.map((message: unknown) =>
      typeof message === "object" && message !== null && "content" in message && typeof message.content === "string"
        ? message.content
        : ""
    ).join("\n")
    : ""

/** One entry per searchable field that has a value: text as is, chat messages' contents, custom values as JSON. */
export const searchableTexts = (schema: IndexSchema, record: IndexedRecord): ReadonlyArray<{ field: string; text: string }> =>
  schema.fields.flatMap(({ name, settings }) => {
    const value = record.fields[name]
    if (value === null || value === undefined) return []
    switch (settings.type) {
      case "text":
        return typeof value === "string" ? [{ field: name, text: value }] : []
      case "chat":
        return [{ field: name, text: chatText(value) }]
      case "custom":
        return [{ field: name, text: JSON.stringify(value) }]
      case "image":
        return []
    }
  })

/** The words of a query, for engines that take terms rather than a query language. */
export const queryTerms = (q: string): ReadonlyArray<string> =>
  q.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter((term) => term !== "")

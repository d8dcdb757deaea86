/**
 * The record-by-record formats of a file export (`POST /api/gloss/datasets/{id}/exports`): JSON Lines, CSV, and the
 * usernames added to the Hub's Parquet rows. Each turns one record into one line or row, so that the export job
 * writes them a page at a time. Usernames come from the caller, by user id (`Usernames`): records carry only ids; so
 * do the records' final answers (`FinalAnswersOf`, by record id). docs/how-to/move-datasets.md describes the columns.
 */
import { Schema } from "effect"
import { DatasetRecord } from "../domain/Record.js"
import type { DatasetSettings } from "./dataset.js"
import { addFinalCells, finalAnswersObject, type FinalAnswersOf, finalsByQuestion, withFinalColumns } from "./finalAnswers.js"
import { type Column, hubColumns, recordToRow } from "./hubRows.js"

/** Usernames by user id; a user deleted since answering has none (`null` in the file). */
export type Usernames = ReadonlyMap<string, string>

const usernameOf = (usernames: Usernames, userId: string) => usernames.get(userId) ?? null

const encodeRecord = Schema.encodeSync(DatasetRecord)

/**
 * One line of JSON Lines: the record as the API answers it, each response with its author's `username`, and
 * `final_answers` by question (`{}` when none is settled).
 */
export const jsonlLine = (record: DatasetRecord, usernames: Usernames, finals: FinalAnswersOf): string => {
  const wire = encodeRecord(record)
  const responses = wire.responses?.map((response) => ({ ...response, username: usernameOf(usernames, response.user_id) }))
  const final_answers = finalAnswersObject(record, finals, usernames)
  return JSON.stringify(responses === undefined ? { ...wire, final_answers } : { ...wire, responses, final_answers }) + "\n"
}

// ---------------------------------------------------------------------------------------------------------------
// CSV (RFC 4180: comma, CRLF, quotes doubled)

/**
 * The CSV columns: `id`, `external_id`, `status`, `inserted_at`, `updated_at`, each field, `metadata.<name>` per
 * metadata property, `vector.<name>` per vector, and per question `<question>.responses` (a JSON list of
 * `{username, user_id, value, status}`), `<question>.suggestion` (its value), `<question>.suggestion.score`,
 * `<question>.suggestion.agent`, `<question>.suggestion.type` and `<question>.final` (its final answer's value).
 */
export const csvColumns = (settings: DatasetSettings): ReadonlyArray<string> => [
  "id",
  "external_id",
  "status",
  "inserted_at",
  "updated_at",
  ...settings.fields.map((field) => field.name),
  ...settings.metadata.map((property) => `metadata.${property.name}`),
  ...settings.vectors.map((vector) => `vector.${vector.name}`),
  ...settings.questions.flatMap((question) => [
    `${question.name}.responses`,
    `${question.name}.suggestion`,
    `${question.name}.suggestion.score`,
    `${question.name}.suggestion.agent`,
    `${question.name}.suggestion.type`,
    `${question.name}.final`
  ])
]

/** A value as a cell: text as it is, numbers and booleans as written, nested values as JSON, nothing as empty. */
const cellText = (value: unknown): string => {
  if (value === null || value === undefined) return ""
  if (typeof value === "string") return value
  if (typeof value === "number" || typeof value === "boolean") return String(value)
  return JSON.stringify(value)
}

const quoted = (text: string) => /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll("\"", "\"\"")}"` : text

/** One CSV line from its cells. */
export const csvLine = (cells: ReadonlyArray<unknown>): string => cells.map((cell) => quoted(cellText(cell))).join(",") + "\r\n"

export const csvHeader = (settings: DatasetSettings): string => csvLine(csvColumns(settings))

/** One record's CSV line, its cells in the order of `csvColumns`. */
export const csvRecordLine = (
  record: DatasetRecord,
  settings: DatasetSettings,
  usernames: Usernames,
  finals: FinalAnswersOf
): string => {
  const final = finalsByQuestion(finals, record)
  const fields = new Map(Object.entries(record.fields))
  const metadata = new Map(Object.entries(record.metadata ?? {}))
  const vectors = new Map(Object.entries(record.vectors ?? {}))
  const suggestions = new Map((record.suggestions ?? []).map((suggestion) => [suggestion.question_id, suggestion]))
  const cells: Array<unknown> = [
    record.id,
    record.external_id,
    record.status,
    record.inserted_at.toISOString(),
    record.updated_at.toISOString(),
    ...settings.fields.map((field) => fields.get(field.name)),
    ...settings.metadata.map((property) => metadata.get(property.name)),
    ...settings.vectors.map((vector) => vectors.get(vector.name))
  ]
  for (const question of settings.questions) {
    const answers = (record.responses ?? []).flatMap((response) => {
      const answer = response.values === null ? undefined : new Map(Object.entries(response.values)).get(question.name)
      return answer === undefined ? [] : [{
        username: usernameOf(usernames, response.user_id),
        user_id: response.user_id,
        value: answer.value,
        status: response.status
      }]
    })
    const suggestion = suggestions.get(question.id)
    cells.push(
      answers.length === 0 ? null : answers,
      suggestion?.value,
      suggestion?.score,
      suggestion?.agent,
      suggestion?.type,
      final.get(question.name)?.value
    )
  }
  return csvLine(cells)
}

// ---------------------------------------------------------------------------------------------------------------
// Parquet: the Hub's rows plus `<question>.responses.usernames` and `<question>.final`

const usernamesColumn = (question: string) => `${question}.responses.usernames`

/**
 * The Hub export's columns (`hubColumns`) with, after each question's `.responses.users`, its `.responses.usernames`
 * (a list parallel to `.responses.users`), and after its `.responses.status` its `.final`. Argilla's `from_hub` reads
 * the columns it knows by name and ignores these.
 */
export const parquetColumns = (settings: DatasetSettings): ReadonlyArray<Column> =>
  withFinalColumns(hubColumns(settings), settings).flatMap((column) => {
    const question = column.name.endsWith(".responses.users") ? column.name.slice(0, -".responses.users".length) : undefined
    return question === undefined || !settings.questions.some((q) => q.name === question)
      ? [column]
      : [column, { name: usernamesColumn(question), type: { kind: "list", item: { kind: "string" } } }]
  })

export const parquetRow = (
  record: DatasetRecord,
  settings: DatasetSettings,
  usernames: Usernames,
  finals: FinalAnswersOf
): Record<string, unknown> => {
  const row = addFinalCells(recordToRow(record, settings), record, settings, finals)
  for (const question of settings.questions) {
    const users = row[`${question.name}.responses.users`]
    row[usernamesColumn(question.name)] = Array.isArray(users)
      ? users.map((user: unknown) => (typeof user === "string" ? usernameOf(usernames, user) : null))
      : null
  }
  return row
}

/**
 * The final answers (settled in review, `domain/Review.ts`) as the file exports carry them beside each record: by
 * question name, with the usernames of who gave and who settled each one, and whether a record is settled. The
 * exports read them a page of records at a time (`FinalAnswersOf`, by record id).
 */
import type { UserId } from "../domain/Ids.js"
import type { DatasetRecord } from "../domain/Record.js"
import type { FinalAnswer } from "../domain/Review.js"
import type { DatasetSettings } from "./dataset.js"
import { answerType, type Column } from "./hubRows.js"

/** A page's final answers by record id; a record without any is absent. */
export type FinalAnswersOf = ReadonlyMap<string, ReadonlyArray<FinalAnswer>>

/** Usernames by user id (a user deleted since has none). */
type Usernames = ReadonlyMap<string, string>

/** Final answers (in any order) by record id. */
export const groupByRecord = (answers: ReadonlyArray<FinalAnswer>): FinalAnswersOf => {
  const byRecord = new Map<string, Array<FinalAnswer>>()
  for (const answer of answers) {
    const list = byRecord.get(answer.record_id) ?? []
    list.push(answer)
    byRecord.set(answer.record_id, list)
  }
  return byRecord
}

/** One record's final answers by question name. */
export const finalsByQuestion = (finals: FinalAnswersOf, record: DatasetRecord): ReadonlyMap<string, FinalAnswer> =>
  new Map((finals.get(record.id) ?? []).map((answer) => [answer.question, answer]))

/** The ids of the users a page's final answers name (who gave the answer taken, who settled it). */
export const finalAnswerUserIds = (finals: FinalAnswersOf): ReadonlyArray<UserId> =>
  [...finals.values()].flatMap((answers) =>
    answers.flatMap((answer) => answer.source_user_id === null ? [answer.settled_by] : [answer.settled_by, answer.source_user_id])
  )

/** The questions a record has at least one submitted answer to. */
export const answeredQuestions = (record: DatasetRecord): ReadonlySet<string> =>
  new Set(
    (record.responses ?? []).filter((response) => response.status === "submitted").flatMap((response) =>
      Object.keys(response.values ?? {})
    )
  )

/**
 * Settled (as the review queue says it): every question with a submitted answer has a final answer, and there is at
 * least one final answer.
 */
export const isSettled = (record: DatasetRecord, finals: ReadonlyMap<string, FinalAnswer>): boolean =>
  finals.size > 0 && [...answeredQuestions(record)].every((question) => finals.has(question))

/** A final answer as the JSON Lines export and the disk export's `final_answers.jsonl` write it. */
export const finalAnswerJson = (answer: FinalAnswer, usernames: Usernames) => ({
  value: answer.value,
  source: answer.source,
  source_user_id: answer.source_user_id,
  source_username: answer.source_user_id === null ? null : usernames.get(answer.source_user_id) ?? null,
  note: answer.note,
  settled_by: answer.settled_by,
  settled_by_username: usernames.get(answer.settled_by) ?? null,
  inserted_at: answer.inserted_at.toISOString(),
  updated_at: answer.updated_at.toISOString()
})

/** `{question: finalAnswerJson}` for the record's settled questions (`{}` when none is). */
export const finalAnswersObject = (record: DatasetRecord, finals: FinalAnswersOf, usernames: Usernames) =>
  Object.fromEntries((finals.get(record.id) ?? []).map((answer) => [answer.question, finalAnswerJson(answer, usernames)]))

/**
 * The disk export's `final_answers.jsonl`, beside the SDK's files (which have no place for them): one line per record
 * and settled question, `id` being the record's id in `records.json` (the SDK's: the external id) and `_server_id`
 * Gloss's.
 */
export const FINAL_ANSWERS_FILE = "final_answers.jsonl"

export const finalAnswerLines = (record: DatasetRecord, finals: FinalAnswersOf, usernames: Usernames): string =>
  (finals.get(record.id) ?? []).map((answer) =>
    JSON.stringify({ id: record.external_id, _server_id: record.id, question: answer.question, ...finalAnswerJson(answer, usernames) }) +
    "\n"
  ).join("")

// ---------------------------------------------------------------------------------------------------------------
// The Hub's rows (the Parquet export and the server's Hub export): `<question>.final`

/** The column of a question's final answer, typed as one of its responses. */
export const finalColumn = (question: string) => `${question}.final`

/**
 * The columns with `<question>.final` after each question's `.responses.status`. Argilla's `from_hub` reads the
 * response columns by their `.responses` suffixes and maps the others by name, so it ignores these.
 */
export const withFinalColumns = (columns: ReadonlyArray<Column>, settings: DatasetSettings): ReadonlyArray<Column> =>
  columns.flatMap((column) => {
    const question = settings.questions.find((q) => column.name === `${q.name}.responses.status`)
    return question === undefined
      ? [column]
      : [column, { name: finalColumn(question.name), type: answerType(question.settings.type) }]
  })

/** Sets each question's `.final` cell of the record's row (null where it is not settled). */
export const addFinalCells = (
  row: Record<string, unknown>,
  record: DatasetRecord,
  settings: DatasetSettings,
  finals: FinalAnswersOf
): Record<string, unknown> => {
  const byQuestion = finalsByQuestion(finals, record)
  for (const question of settings.questions) row[finalColumn(question.name)] = byQuestion.get(question.name)?.value ?? null
  return row
}

/**
 * Adjudication, free of I/O: a question's submitted answers in the order their keys pick them, the answer a
 * reviewer picks as final (an annotator's, the suggestion, or their own) and the final answers a settle sends.
 * Only submitted answers count, and only answered ones: an annotator who left a question blank gave no answer to it.
 */
import type { Question } from "../../../../../src/domain/Question.js"
import type { DatasetRecord } from "../../../../../src/domain/Record.js"
import type { FinalAnswer, FinalAnswerSet } from "../../../../../src/domain/Review.js"
import type { UserId } from "../../../../../src/domain/Ids.js"
import { isAnswered, suggestionFor, toResponseValues } from "../questions/answers.js"

export interface SubmittedAnswer {
  readonly userId: UserId
  readonly value: unknown
}

/** The submitted, non-blank answers to `question`, by username (so 1, 2, 3 pick the same person on every record). */
export const submittedAnswers = (
  record: DatasetRecord,
  question: Question,
  nameOf: (id: string) => string
): ReadonlyArray<SubmittedAnswer> =>
  (record.responses ?? [])
    .filter((r) => r.status === "submitted")
    .flatMap((r) => {
      const value = r.values?.[question.name]?.value
      return isAnswered(question, value) ? [{ userId: r.user_id, value }] : []
    })
    .sort((a, b) => nameOf(a.userId).localeCompare(nameOf(b.userId)) || a.userId.localeCompare(b.userId))

/** What the reviewer picked as a question's final answer. */
export type Pick =
  | { readonly source: "response"; readonly userId: UserId; readonly value: unknown }
  | { readonly source: "suggestion"; readonly value: unknown }
  | { readonly source: "reviewer"; readonly value: unknown }

/**
 * The pick a question starts with: none once it is settled (its final answer stands until re-picked) or while its
 * answers differ; otherwise the one answer everyone gave, so Enter settles the questions nobody disputes.
 */
export const initialPick = (
  answers: ReadonlyArray<SubmittedAnswer>,
  disagreeing: boolean,
  final: FinalAnswer | undefined
): Pick | undefined => {
  const first = answers[0]
  if (final !== undefined || disagreeing || first === undefined) return undefined
  return { source: "response", userId: first.userId, value: first.value }
}

/** The value a reviewer's own answer starts from: what is picked, else the final answer, else nothing. */
export const ownStart = (pick: Pick | undefined, final: FinalAnswer | undefined): unknown => pick?.value ?? final?.value

export type SettleItems =
  | { readonly _tag: "items"; readonly items: ReadonlyArray<FinalAnswerSet> }
  | { readonly _tag: "problems"; readonly problems: Readonly<Record<string, string>> }

/** The final answers a settle sends, one per picked question, or why it cannot be sent (by question name). */
export const settleItems = (
  questions: ReadonlyArray<Question>,
  picks: Readonly<Record<string, Pick | undefined>>,
  notes: Readonly<Record<string, string>>
): SettleItems => {
  const items: Array<FinalAnswerSet> = []
  const problems: Record<string, string> = {}
  for (const question of questions) {
    const pick = picks[question.name]
    if (pick === undefined) continue
    // The same normalisation a response's values get: unranked options left out, blank text is no answer.
    const value = toResponseValues([question], { [question.name]: pick.value })?.[question.name]?.value
    if (value === undefined) {
      problems[question.name] = "Enter an answer, or pick another one."
      continue
    }
    const note = notes[question.name]?.trim() ?? ""
    items.push({
      question: question.name,
      value,
      source: pick.source,
      source_user_id: pick.source === "response" ? pick.userId : null,
      note: note === "" ? null : note
    })
  }
  return Object.keys(problems).length > 0 ? { _tag: "problems", problems } : { _tag: "items", items }
}

/** The suggestion's value for a question, if the record has one. */
export const suggestedValue = (record: DatasetRecord, question: Question) => suggestionFor(record, question)

/** Whether two picks choose the same thing (the same source and person). */
export const samePick = (a: Pick | undefined, b: Pick | undefined): boolean =>
  a !== undefined && b !== undefined && a.source === b.source &&
  (a.source !== "response" || b.source !== "response" || a.userId === b.userId)

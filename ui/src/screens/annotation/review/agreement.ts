/**
 * Which annotators agree on a record (review mode), free of I/O. Only submitted answers count: a draft
 * is unfinished and a discard is no answer. Two answers are equal when their canonical keys are: a label or a
 * rating by value, a multi-label answer as a set, a ranking by its order (rank numbers themselves do not matter,
 * ties do), a text by its trimmed string, spans as a set of (label, start, end).
 */
import type { Question } from "../../../../../src/domain/Question.js"
import type { DatasetRecord } from "../../../../../src/domain/Record.js"
import type { Response } from "../../../../../src/domain/Response.js"

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const strings = (value: unknown): ReadonlyArray<string> =>
  Array.isArray(value) ? value.map((v) => (typeof v === "string" ? v : JSON.stringify(v))) : []

/** A string equal for two answers exactly when the review counts them as the same answer. */
export const answerKey = (type: Question["settings"]["type"], value: unknown): string => {
  switch (type) {
    case "multi_label_selection":
      return JSON.stringify([...new Set(strings(value))].sort())
    case "text":
      return JSON.stringify(typeof value === "string" ? value.trim() : value)
    case "ranking": {
      if (!Array.isArray(value)) return JSON.stringify(value)
      // Options grouped by rank, groups in rank order: [1: y][2: x, z] whatever numbers the ranks use.
      const byRank = new Map<number, Array<string>>()
      for (const item of value) {
        if (!isObject(item) || typeof item["rank"] !== "number" || typeof item["value"] !== "string") continue
        byRank.set(item["rank"], [...(byRank.get(item["rank"]) ?? []), item["value"]])
      }
      return JSON.stringify([...byRank.entries()].sort(([a], [b]) => a - b).map(([, values]) => values.sort()))
    }
    case "span": {
      if (!Array.isArray(value)) return JSON.stringify(value)
      const spans = new Set<string>()
      for (const span of value) {
        if (isObject(span)) spans.add(JSON.stringify([span["start"], span["end"], span["label"]]))
      }
      return JSON.stringify([...spans].sort())
    }
    default:
      return JSON.stringify(value)
  }
}

export interface AnswerGroup {
  readonly key: string
  /** the first of these annotators' answers, to show */
  readonly value: unknown
  readonly users: ReadonlyArray<string>
}

export interface QuestionAgreement {
  readonly question: Question
  /** submitted answers, grouped by equal answers, the largest group first */
  readonly groups: ReadonlyArray<AnswerGroup>
  /** annotators who submitted an answer to this question */
  readonly answered: number
  /** the size of the largest group of equal submitted answers */
  readonly agreeing: number
  /** two or more different submitted answers */
  readonly disagreement: boolean
}

export const submitted = (record: DatasetRecord): ReadonlyArray<Response> =>
  (record.responses ?? []).filter((r) => r.status === "submitted")

export const questionAgreement = (question: Question, responses: ReadonlyArray<Response>): QuestionAgreement => {
  const groups = new Map<string, { value: unknown; users: Array<string> }>()
  for (const response of responses) {
    if (response.status !== "submitted") continue
    const answer = response.values?.[question.name]
    if (answer === undefined || answer.value === null) continue
    const key = answerKey(question.settings.type, answer.value)
    const group = groups.get(key)
    if (group === undefined) groups.set(key, { value: answer.value, users: [response.user_id] })
    else group.users.push(response.user_id)
  }
  const sorted = [...groups.entries()].map(([key, g]) => ({ key, value: g.value, users: g.users }))
    .sort((a, b) => b.users.length - a.users.length)
  return {
    question,
    groups: sorted,
    answered: sorted.reduce((n, g) => n + g.users.length, 0),
    agreeing: sorted[0]?.users.length ?? 0,
    disagreement: sorted.length > 1
  }
}

export const recordAgreement = (questions: ReadonlyArray<Question>, record: DatasetRecord) =>
  questions.map((q) => questionAgreement(q, record.responses ?? []))

export const hasDisagreement = (questions: ReadonlyArray<Question>, record: DatasetRecord) =>
  recordAgreement(questions, record).some((a) => a.disagreement)

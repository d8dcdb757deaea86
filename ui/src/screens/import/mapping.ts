/**
 * Which column of the file goes where in a record (a field, a metadata property, the external id, a question's
 * suggestion with its score and agent, a response's answer, a vector, or nowhere), and the record a row becomes.
 * Columns are matched by name first (case, spaces and dashes ignored), then by title. Responses are never matched
 * automatically: they are given for a user the importer chooses.
 */
import type { Field } from "../../../../src/domain/Field.js"
import type { MetadataProperty } from "../../../../src/domain/MetadataProperty.js"
import type { UserId } from "../../../../src/domain/Ids.js"
import type { Question } from "../../../../src/domain/Question.js"
import type { ResponseStatus } from "../../../../src/domain/Response.js"
import type { VectorSettings } from "../../../../src/domain/VectorSettings.js"
import { parseAnswer, parseScore, parseVector } from "./answers.js"
import { checkRecord } from "./validate.js"

/**
 * `""` (ignored), `field:<name>`, `metadata:<name>`, `external_id`, `suggestion:<question>`,
 * `suggestion_score:<question>`, `suggestion_agent:<question>`, `response:<question>` or `vector:<name>`: a string,
 * so it can be a `<select>`'s value.
 */
export type Target = string
export const IGNORE: Target = ""
export const EXTERNAL_ID: Target = "external_id"
export const fieldTarget = (name: string): Target => `field:${name}`
export const metadataTarget = (name: string): Target => `metadata:${name}`
export const suggestionTarget = (question: string): Target => `suggestion:${question}`
export const scoreTarget = (question: string): Target => `suggestion_score:${question}`
export const agentTarget = (question: string): Target => `suggestion_agent:${question}`
export const responseTarget = (question: string): Target => `response:${question}`
export const vectorTarget = (name: string): Target => `vector:${name}`

/** A target's kind and the name after it (`suggestion_score:sentiment` → `suggestion_score`, `sentiment`). */
const split = (target: Target): readonly [string, string] => {
  const at = target.indexOf(":")
  return at < 0 ? [target, ""] : [target.slice(0, at), target.slice(at + 1)]
}

/** Whom the response columns answer for, and with which status: one user and one status for the whole import. */
export interface ResponseChoice {
  readonly user_id: UserId
  readonly status: ResponseStatus
}

/** What a row is read against beyond fields and metadata: questions, vector settings, the response's user. */
export interface MoreSettings {
  readonly questions?: ReadonlyArray<Question>
  readonly vectorSettings?: ReadonlyArray<Pick<VectorSettings, "name" | "title" | "dimensions">>
  readonly response?: ResponseChoice | undefined
}

export type Mapping = Readonly<Record<string, Target>>

const normal = (name: string) => name.trim().toLowerCase().replace(/[\s-]+/g, "_")

const EXTERNAL_ID_NAMES = new Set(["external_id", "externalid", "id", "record_id"])

/** Maps each column automatically; a target is taken by one column at most (the first that matches). */
export const autoMap = (
  columns: ReadonlyArray<string>,
  fields: ReadonlyArray<Pick<Field, "name" | "title">>,
  metadata: ReadonlyArray<Pick<MetadataProperty, "name" | "title">>,
  more: Pick<MoreSettings, "questions" | "vectorSettings"> = {}
): Record<string, Target> => {
  const questions = more.questions ?? []
  const vectors = more.vectorSettings ?? []
  const taken = new Set<Target>()
  const mapping: Record<string, Target> = {}
  const find = (column: string): Target => {
    const key = normal(column)
    const candidates: Array<Target> = [
      ...fields.filter((f) => normal(f.name) === key).map((f) => fieldTarget(f.name)),
      ...metadata.filter((m) => normal(m.name) === key).map((m) => metadataTarget(m.name)),
      ...(EXTERNAL_ID_NAMES.has(key) ? [EXTERNAL_ID] : []),
      ...questions.filter((q) => normal(q.name) === key).map((q) => suggestionTarget(q.name)),
      ...questions.filter((q) => `${normal(q.name)}_score` === key).map((q) => scoreTarget(q.name)),
      ...questions.filter((q) => `${normal(q.name)}_agent` === key).map((q) => agentTarget(q.name)),
      ...vectors.filter((v) => normal(v.name) === key).map((v) => vectorTarget(v.name)),
      ...fields.filter((f) => normal(f.title) === key).map((f) => fieldTarget(f.name)),
      ...metadata.filter((m) => normal(m.title) === key).map((m) => metadataTarget(m.name)),
      ...questions.filter((q) => normal(q.title) === key).map((q) => suggestionTarget(q.name)),
      ...vectors.filter((v) => normal(v.title) === key).map((v) => vectorTarget(v.name))
    ]
    return candidates.find((target) => !taken.has(target)) ?? IGNORE
  }
  for (const column of columns) {
    const target = find(column)
    if (target !== IGNORE) taken.add(target)
    mapping[column] = target
  }
  return mapping
}

/**
 * Problems with a mapping that make the import pointless: no field mapped, a required field left out, a target used
 * twice, a score or agent with no suggestion column for its question, response columns with no user chosen.
 */
export const mappingProblems = (
  mapping: Mapping,
  fields: ReadonlyArray<Pick<Field, "name" | "title" | "required">>,
  response?: ResponseChoice | undefined
): Array<string> => {
  const problems: Array<string> = []
  const targets = Object.values(mapping).filter((t) => t !== IGNORE)
  if (!targets.some((t) => t.startsWith("field:"))) problems.push("Map at least one column to a field.")
  for (const field of fields) {
    if (field.required && !targets.includes(fieldTarget(field.name))) {
      problems.push(`The required field “${field.title}” has no column.`)
    }
  }
  const seen = new Set<Target>()
  for (const target of targets) {
    if (seen.has(target)) problems.push(`Two columns go to the same place (${target.replace(":", " ")}).`)
    seen.add(target)
  }
  for (const target of new Set(targets)) {
    const [kind, name] = split(target)
    if ((kind === "suggestion_score" || kind === "suggestion_agent") && !targets.includes(suggestionTarget(name))) {
      problems.push(`The suggestion ${kind === "suggestion_score" ? "score" : "agent"} for “${name}” needs a column with the suggestion itself.`)
    }
  }
  if (targets.some((t) => split(t)[0] === "response") && response === undefined) {
    problems.push("Choose the user the response columns answer for.")
  }
  return problems
}

export interface ImportSuggestion {
  readonly question_id: Question["id"]
  readonly value: unknown
  readonly score?: number | ReadonlyArray<number>
  readonly agent?: string
}

export interface ImportResponse {
  readonly user_id: UserId
  readonly status: ResponseStatus
  readonly values: Record<string, { readonly value: unknown }>
}

export interface ImportRecord {
  readonly fields: Record<string, unknown>
  readonly metadata?: Record<string, unknown>
  readonly external_id?: string
  readonly suggestions?: ReadonlyArray<ImportSuggestion>
  readonly responses?: ReadonlyArray<ImportResponse>
  readonly vectors?: Record<string, ReadonlyArray<number>>
}

const blank = (value: unknown) => value === undefined || value === null || (typeof value === "string" && value.trim() === "")

const parseJson = (text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/** A cell as a field's value: text and image fields take text; chat and custom fields take JSON (a CSV cell is parsed). */
const fieldValue = (field: Pick<Field, "name" | "settings">, value: unknown): { value: unknown } | { error: string } => {
  switch (field.settings.type) {
    case "text":
    case "image":
      if (typeof value === "string") return { value }
      if (typeof value === "number" || typeof value === "boolean") return { value: String(value) }
      return { error: `field '${field.name}' expects text, found ${JSON.stringify(value)}` }
    case "chat": {
      const parsed = typeof value === "string" ? parseJson(value) : { ok: true as const, value }
      if (!parsed.ok || !Array.isArray(parsed.value)) {
        return { error: `field '${field.name}' expects a JSON list of messages ({"role", "content"})` }
      }
      return { value: parsed.value }
    }
    case "custom": {
      if (typeof value !== "string") return { value }
      const parsed = parseJson(value)
      return { value: parsed.ok ? parsed.value : value }
    }
  }
}

const metadataValue = (property: Pick<MetadataProperty, "name" | "settings">, value: unknown): { value: unknown } | { error: string } => {
  const raw = typeof value === "string" ? value.trim() : value
  switch (property.settings.type) {
    case "integer":
      if (typeof raw === "number" && Number.isInteger(raw)) return { value: raw }
      if (typeof raw === "string" && /^[+-]?\d+$/.test(raw)) return { value: Number(raw) }
      return { error: `metadata '${property.name}' expects an integer, found ${JSON.stringify(value)}` }
    case "float": {
      const number = typeof raw === "number" ? raw : typeof raw === "string" ? Number(raw) : Number.NaN
      return Number.isFinite(number) ? { value: number } : { error: `metadata '${property.name}' expects a number, found ${JSON.stringify(value)}` }
    }
    case "terms":
      return { value: raw }
  }
}

/**
 * The record a row becomes under `mapping`, or why it cannot be one (said for the row, before anything is sent):
 * its cells read as fields, metadata, answers and vectors, then checked by the server's rules (`validate.ts`).
 */
export const toRecord = (
  values: Readonly<Record<string, unknown>>,
  mapping: Mapping,
  fields: ReadonlyArray<Pick<Field, "name" | "title" | "required" | "settings">>,
  metadata: ReadonlyArray<Pick<MetadataProperty, "name" | "settings">>,
  more: MoreSettings = {}
): { readonly record: ImportRecord } | { readonly error: string } => {
  const recordFields: Record<string, unknown> = {}
  const recordMetadata: Record<string, unknown> = {}
  const suggested = new Map<string, { value?: unknown; score?: number | ReadonlyArray<number>; agent?: string }>()
  const answers: Record<string, { readonly value: unknown }> = {}
  const vectors: Record<string, ReadonlyArray<number>> = {}
  const questions = more.questions ?? []
  let externalId: string | undefined
  for (const [column, target] of Object.entries(mapping)) {
    const value = values[column]
    if (target === IGNORE || blank(value)) continue
    if (target === EXTERNAL_ID) {
      externalId = typeof value === "string" ? value.trim() : JSON.stringify(value)
    } else if (target.startsWith("field:")) {
      const field = fields.find((f) => fieldTarget(f.name) === target)
      if (field === undefined) continue
      const converted = fieldValue(field, value)
      if ("error" in converted) return { error: converted.error }
      recordFields[field.name] = converted.value
    } else if (target.startsWith("metadata:")) {
      const property = metadata.find((m) => metadataTarget(m.name) === target)
      if (property === undefined) continue
      const converted = metadataValue(property, value)
      if ("error" in converted) return { error: converted.error }
      recordMetadata[property.name] = converted.value
    } else {
      const [kind, name] = split(target)
      if (kind === "vector") {
        const parsed = parseVector(value)
        if ("error" in parsed) return { error: `vector '${name}' ${parsed.error}` }
        vectors[name] = parsed.value
        continue
      }
      const question = questions.find((q) => q.name === name)
      if (question === undefined) continue
      const entry = suggested.get(name) ?? {}
      if (kind === "suggestion" || kind === "response") {
        const parsed = parseAnswer(question.settings, value)
        if ("error" in parsed) return { error: `${kind} for question '${name}' ${parsed.error}` }
        if (kind === "response") answers[name] = { value: parsed.value }
        else suggested.set(name, { ...entry, value: parsed.value })
      } else if (kind === "suggestion_score") {
        const parsed = parseScore(value)
        if ("error" in parsed) return { error: `suggestion for question '${name}': ${parsed.error}` }
        suggested.set(name, { ...entry, score: parsed.value })
      } else if (kind === "suggestion_agent") {
        suggested.set(name, { ...entry, agent: typeof value === "string" ? value.trim() : JSON.stringify(value) })
      }
    }
  }
  const suggestions: Array<ImportSuggestion> = []
  for (const [name, entry] of suggested) {
    const question = questions.find((q) => q.name === name)
    // A score or an agent alone, on a row whose suggestion cell is empty, is no suggestion.
    if (question === undefined || !("value" in entry)) continue
    suggestions.push({
      question_id: question.id,
      value: entry.value,
      ...(entry.score === undefined ? {} : { score: entry.score }),
      ...(entry.agent === undefined ? {} : { agent: entry.agent })
    })
  }
  const responses: Array<ImportResponse> = more.response === undefined || Object.keys(answers).length === 0
    ? []
    : [{ user_id: more.response.user_id, status: more.response.status, values: answers }]
  for (const field of fields) {
    if (field.required && !(field.name in recordFields)) return { error: `the required field '${field.name}' is empty` }
  }
  if (Object.keys(recordFields).length === 0) return { error: "every mapped field is empty" }
  const record: ImportRecord = {
    fields: recordFields,
    ...(Object.keys(recordMetadata).length > 0 ? { metadata: recordMetadata } : {}),
    ...(externalId === undefined ? {} : { external_id: externalId }),
    ...(suggestions.length > 0 ? { suggestions } : {}),
    ...(responses.length > 0 ? { responses } : {}),
    ...(Object.keys(vectors).length > 0 ? { vectors } : {})
  }
  const problem = checkRecord(record, { metadata, questions, vectorSettings: more.vectorSettings ?? [] })
  return problem === undefined ? { record } : { error: problem }
}

/** Collects items into batches of at most `size`; `flush` hands out the last, shorter one. */
export class Batcher<A> {
  private items: Array<A> = []
  constructor(readonly size: number) {}
  /** Adds an item; returns a full batch when this one filled it. */
  add(item: A): Array<A> | undefined {
    this.items.push(item)
    if (this.items.length < this.size) return undefined
    const full = this.items
    this.items = []
    return full
  }
  flush(): Array<A> | undefined {
    if (this.items.length === 0) return undefined
    const rest = this.items
    this.items = []
    return rest
  }
}

/**
 * The training exports (`training-jsonl`, `conll`, `spacy`, `dpo` in `domain/Export.ts`): the settled data only,
 * made from the records' final answers, one record at a time. Which question a format needs is checked before the
 * job starts (`trainingPlan`); each record then gives its lines, or nothing when it has no final answer to use (the
 * export counts those). docs/how-to/export-for-training.md describes each file.
 */
import { Either } from "effect"
import { trainingQuestionTypes, type TrainingFormat } from "../domain/Export.js"
import type { Question } from "../domain/Question.js"
import type { DatasetRecord } from "../domain/Record.js"
import type { DatasetSettings } from "./dataset.js"
import { type FinalAnswersOf, finalsByQuestion, isSettled } from "./finalAnswers.js"

/** What a training export is made from, once its question is checked against the dataset's settings. */
export type TrainingPlan =
  | { readonly format: "training-jsonl"; readonly question: Question | null }
  | { readonly format: "conll" | "spacy"; readonly question: Question; readonly field: string }
  | {
    readonly format: "dpo"
    readonly question: Question
    /** The field the prompt is read from. */
    readonly prompt: string
    /** The option values that name a text field (a label question's candidates; a ranking's field-backed options). */
    readonly candidates: ReadonlySet<string>
  }

const list = (names: ReadonlyArray<string>) => names.length === 0 ? "none" : names.map((name) => `\`${name}\``).join(", ")

/**
 * The plan of a training export, or why the request cannot make one (a 422's message): the question is missing, not
 * in the dataset, of a type the format cannot use, or (DPO) there is no prompt or candidate field.
 */
export const trainingPlan = (
  format: TrainingFormat,
  settings: DatasetSettings,
  questionName: string | null | undefined
): Either.Either<TrainingPlan, string> => {
  const types: ReadonlyArray<string> | null = trainingQuestionTypes[format]
  const fitting = settings.questions.filter((q) => types === null || types.includes(q.settings.type)).map((q) => q.name)
  if (questionName == null || questionName === "") {
    if (format === "training-jsonl") return Either.right({ format, question: null })
    return Either.left(
      `The \`${format}\` export needs \`question\`: the name of a ${types?.join(" or ")} question of the dataset ` +
        `(it has ${list(fitting)})`
    )
  }
  const question = settings.questions.find((q) => q.name === questionName)
  if (question === undefined) {
    return Either.left(`The dataset has no question \`${questionName}\` (its questions: ${list(settings.questions.map((q) => q.name))})`)
  }
  if (types !== null && !types.includes(question.settings.type)) {
    return Either.left(
      `The \`${format}\` export needs a ${types.join(" or ")} question; \`${question.name}\` is a ` +
        `${question.settings.type} question (the dataset's ${types.join(" or ")} questions: ${list(fitting)})`
    )
  }
  const settingsOf = question.settings
  switch (format) {
    case "training-jsonl":
      return Either.right({ format, question })
    case "conll":
    case "spacy":
      return settingsOf.type === "span"
        ? Either.right({ format, question, field: settingsOf.field })
        : Either.left(`The \`${format}\` export needs a span question`)
    case "dpo": {
      const textFields = new Set(settings.fields.filter((field) => field.settings.type === "text").map((field) => field.name))
      const options = settingsOf.type === "ranking" || settingsOf.type === "label_selection" ? settingsOf.options : []
      const candidates = new Set(options.map((option) => option.value).filter((value) => textFields.has(value)))
      if (settingsOf.type === "label_selection" && candidates.size < 2) {
        return Either.left(
          `A label question makes DPO pairs when at least two of its options name text fields (the fields holding ` +
            `the candidate answers); the options of \`${question.name}\` name ${list([...candidates])}`
        )
      }
      const prompt = textFields.has("prompt") && !candidates.has("prompt")
        ? "prompt"
        : settings.fields.find((field) => field.settings.type === "text" && !candidates.has(field.name))?.name
      if (prompt === undefined) {
        return Either.left(
          "The `dpo` export reads the prompt from a text field named `prompt`, or else from the first text field " +
            "that no option of the question names; the dataset has none"
        )
      }
      return Either.right({ format, question, prompt, candidates })
    }
  }
}

/** The one-line reason the records left out were left out, for the job's progress. */
export const skippedReason = (plan: TrainingPlan, skipped: number): string => {
  const records = skipped === 1 ? "1 record was" : `${skipped} records were`
  switch (plan.format) {
    case "training-jsonl":
      return plan.question === null
        ? `${records} not settled (a question with a submitted answer and no final answer): not written`
        : `${records} without a final answer to \`${plan.question.name}\`: not written`
    case "conll":
    case "spacy":
      return `${records} without a final answer to \`${plan.question.name}\` or without text in \`${plan.field}\`: not written`
    case "dpo":
      return `${records} without a pair: no final answer to \`${plan.question.name}\`, no two options ranked apart, ` +
        `a label naming no candidate field, or an empty prompt or candidate: not written`
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Spans: whitespace tokens, IOB tags

export interface Token {
  readonly text: string
  readonly start: number
  /** Exclusive, as the spans' `end`. */
  readonly end: number
}

export interface Span {
  readonly start: number
  readonly end: number
  readonly label: string
}

/** The text split on whitespace, each token with its character offsets in the text. */
export const whitespaceTokens = (text: string): ReadonlyArray<Token> =>
  Array.from(text.matchAll(/\S+/gu), (match) => ({ text: match[0], start: match.index, end: match.index + match[0].length }))

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A span answer's items (`[{start, end, label}]`), in text order; anything else is no span. */
export const spansOf = (value: unknown): ReadonlyArray<Span> =>
  (Array.isArray(value) ? value : []).flatMap((item: unknown) => {
    if (!isRecord(item)) return []
    const { end, label, start } = item
    return typeof start === "number" && typeof end === "number" && typeof label === "string" && end > start
      ? [{ start, end, label }]
      : []
  }).sort((a, b) => a.start - b.start || b.end - a.end)

/**
 * IOB tags, one per token. A token is in a span when they share a character (a span that starts or ends inside a
 * token takes the whole token); the span's first token is `B-<label>`, the rest `I-<label>`. IOB cannot nest, so of
 * overlapping spans the earlier one (then the longer) wins, and a span whose tokens are taken already is left out.
 */
export const iobTags = (tokens: ReadonlyArray<Token>, spans: ReadonlyArray<Span>): ReadonlyArray<string> => {
  const owner: Array<number | undefined> = tokens.map(() => undefined)
  spans.forEach((span, index) => {
    const covered = tokens.flatMap((token, at) => (token.start < span.end && span.start < token.end ? [at] : []))
    if (covered.length === 0 || covered.some((at) => owner[at] !== undefined)) return
    for (const at of covered) owner[at] = index
  })
  return owner.map((index, at) => {
    if (index === undefined) return "O"
    const label = spans[index]?.label ?? ""
    return at > 0 && owner[at - 1] === index ? `I-${label}` : `B-${label}`
  })
}

/**
 * The span without the whitespace at its edges, or undefined when nothing is left: spaCy's `char_span` finds no
 * tokens for a span that starts or ends on a space.
 */
export const trimmedSpan = (span: Span, text: string): Span | undefined => {
  let { end, start } = span
  while (start < end && /\s/u.test(text.charAt(start))) start += 1
  while (end > start && /\s/u.test(text.charAt(end - 1))) end -= 1
  return start < end ? { start, end, label: span.label } : undefined
}

// ---------------------------------------------------------------------------------------------------------------
// Each record's lines

const textOf = (record: DatasetRecord, field: string): string | undefined => {
  const value = new Map(Object.entries(record.fields)).get(field)
  return typeof value === "string" ? value : undefined
}

interface RankedOption {
  readonly value: string
  readonly rank: number
}

/** A ranking's options best first; when any rank is missing, the order of the list is the ranking. */
const rankedOptions = (value: unknown): ReadonlyArray<RankedOption> => {
  const items = (Array.isArray(value) ? value : []).flatMap((item: unknown) =>
    isRecord(item) && typeof item["value"] === "string"
      ? [{ value: item["value"], rank: typeof item["rank"] === "number" ? item["rank"] : null }]
      : typeof item === "string"
      ? [{ value: item, rank: null }]
      : []
  )
  if (items.some((item) => item.rank === null)) return items.map((item, index) => ({ value: item.value, rank: index + 1 }))
  return items.map((item) => ({ value: item.value, rank: item.rank ?? 0 })).sort((a, b) => a.rank - b.rank)
}

/**
 * The (chosen, rejected) pairs of a final answer: for a ranking, every two options ranked apart (the better one
 * chosen; tied options make no pair); for a label, the chosen option against each other candidate.
 */
const dpoPairs = (
  plan: Extract<TrainingPlan, { format: "dpo" }>,
  value: unknown
): ReadonlyArray<readonly [string, string]> => {
  if (plan.question.settings.type === "label_selection") {
    if (typeof value !== "string" || !plan.candidates.has(value)) return []
    return [...plan.candidates].filter((other) => other !== value).map((other) => [value, other] as const)
  }
  const ranked = rankedOptions(value)
  return ranked.flatMap((better, at) =>
    ranked.slice(at + 1).filter((worse) => worse.rank > better.rank).map((worse) => [better.value, worse.value] as const)
  )
}

/** An option's text for DPO: the text of the field it names, else the option's own text. */
const candidateText = (plan: Extract<TrainingPlan, { format: "dpo" }>, record: DatasetRecord, option: string) => {
  if (plan.candidates.has(option)) return textOf(record, option)
  const settings = plan.question.settings
  const options = settings.type === "ranking" || settings.type === "label_selection" ? settings.options : []
  return options.find((o) => o.value === option)?.text
}

/**
 * The record's lines in the plan's format (each ending in a newline; a CoNLL document in a blank line), or undefined
 * when it has nothing to give: no final answer to use.
 */
export const trainingLines = (plan: TrainingPlan, record: DatasetRecord, finals: FinalAnswersOf): string | undefined => {
  const byQuestion = finalsByQuestion(finals, record)
  switch (plan.format) {
    case "training-jsonl": {
      const usable = plan.question === null ? isSettled(record, byQuestion) : byQuestion.has(plan.question.name)
      if (!usable) return undefined
      const final = Object.fromEntries([...byQuestion].map(([question, answer]) => [question, answer.value]))
      return JSON.stringify({
        id: record.id,
        external_id: record.external_id,
        fields: record.fields,
        metadata: record.metadata ?? {},
        final
      }) + "\n"
    }
    case "conll":
    case "spacy": {
      const answer = byQuestion.get(plan.question.name)
      const text = textOf(record, plan.field)
      if (answer === undefined || text === undefined) return undefined
      const spans = spansOf(answer.value).filter((span) => span.end <= text.length)
      if (plan.format === "spacy") {
        const trimmed = spans.flatMap((span) => trimmedSpan(span, text) ?? [])
        return JSON.stringify({ text, spans: trimmed, meta: { id: record.id, external_id: record.external_id } }) + "\n"
      }
      const tokens = whitespaceTokens(text)
      if (tokens.length === 0) return undefined
      const tags = iobTags(tokens, spans)
      return tokens.map((token, at) => `${token.text} ${token.start} ${token.end} ${tags[at]}\n`).join("") + "\n"
    }
    case "dpo": {
      const answer = byQuestion.get(plan.question.name)
      const prompt = textOf(record, plan.prompt)
      if (answer === undefined || prompt === undefined || prompt === "") return undefined
      const lines = dpoPairs(plan, answer.value).flatMap(([chosen, rejected]) => {
        const chosenText = candidateText(plan, record, chosen)
        const rejectedText = candidateText(plan, record, rejected)
        return chosenText === undefined || rejectedText === undefined || chosenText === "" || rejectedText === ""
          ? []
          : [JSON.stringify({ prompt, chosen: chosenText, rejected: rejectedText, id: record.id, external_id: record.external_id }) + "\n"]
      })
      return lines.length === 0 ? undefined : lines.join("")
    }
  }
}

/** One question's agreement over its records, with the measures its type calls for (see measures.ts). */
import type { AgreementQuestion, AnnotatorAgreement, AnnotatorPair, QuestionAgreement } from "../../../domain/Review.js"
import { UserId } from "../../../domain/Ids.js"
import { Interner, labelCodec, multiLabelCodec, rankingCodec, ratingCodec, spanCodec, textCodec } from "./answers.js"
import { type AgreementUnit, collect } from "./collect.js"
import { exactMatch } from "./exactMatch.js"
import { meanOf } from "./figures.js"
import { labelSelectionMeasures } from "./labelSelection.js"
import { figure, type Measures, type PairResult } from "./measures.js"
import { multiLabelMeasures } from "./multiLabel.js"
import { rankingMeasures } from "./ranking.js"
import { ratingMeasures } from "./rating.js"
import { spanMeasures } from "./span.js"
import { textMeasures } from "./text.js"
import { unitCount } from "./units.js"

export const questionAgreement = (
  question: AgreementQuestion,
  units: ReadonlyArray<AgreementUnit>,
  usernames: ReadonlyMap<string, string>
): QuestionAgreement => {
  const settings = question.settings
  switch (settings.type) {
    case "label_selection":
      return assemble(question, labelSelectionMeasures(labelCodec()), units, usernames)
    case "text":
      return assemble(question, textMeasures(textCodec()), units, usernames)
    case "rating":
      return assemble(question, ratingMeasures(ratingCodec(settings.options.map((option) => option.value))), units, usernames)
    case "multi_label_selection":
      return assemble(question, multiLabelMeasures(multiLabelCodec(settings.options.map((o) => o.value))), units, usernames)
    case "ranking":
      return assemble(question, rankingMeasures(rankingCodec(settings.options.map((o) => o.value))), units, usernames)
    case "span":
      return assemble(question, spanMeasures(spanCodec(settings.options.map((o) => o.value))), units, usernames)
  }
}

const TEXT_NOTE = "answers compared after trimming and case folding; texts that differ otherwise count as different"

const assemble = <T>(
  question: AgreementQuestion,
  measures: Measures<T>,
  units: ReadonlyArray<AgreementUnit>,
  usernames: ReadonlyMap<string, string>
): QuestionAgreement => {
  const data = collect(new Interner(measures.codec), units, usernames)
  const people = data.annotators
  const pairs: Array<PairResult> = []
  for (let a = 0; a < people.length; a++) {
    for (let b = a + 1; b < people.length; b++) {
      const values = data.pair(a, b)
      if (values.length > 0) pairs.push({ a, b, values, estimate: measures.pair(values, data) })
    }
  }
  const { measure, variant } = measures.pairFigure
  // Branded once per annotator (a UUID, as the service's user ids are), not per pair.
  const ids = people.map((person) => UserId.make(person.id))
  const idOf = (at: number) => ids[at] ?? UserId.make(people[at]?.id ?? "")
  const annotators: Array<AnnotatorAgreement> = people.map((person, at) => {
    const withSuggestion = data.withSuggestion(at)
    return {
      user_id: idOf(at),
      username: person.username,
      answers: person.answers,
      with_others: meanOf(pairs.filter((pair) => pair.a === at || pair.b === at).map((pair) => pair.estimate.value)),
      with_suggestions: withSuggestion.length === 0 ? null : measures.pair(withSuggestion, data).value,
      records_with_suggestion: withSuggestion.length / 2
    }
  })
  const against = data.suggestionAgainstMajority
  const compared = unitCount(data.units)
  const { figures, labels } = measures.figures(data, pairs)
  const match = exactMatch(data.units)
  return {
    question: question.name,
    type: question.settings.type,
    records_compared: compared,
    records_single: data.single,
    records_unanswered: data.unanswered,
    records_disagreeing: data.disagreeing,
    figures: [
      ...figures,
      figure("exact_match", null, measures.codec.type === "text" && match.value !== null ? { ...match, note: TEXT_NOTE } : match, compared)
    ],
    labels,
    pairs: pairs.map((pair): AnnotatorPair => ({
      a: idOf(pair.a),
      b: idOf(pair.b),
      records: pair.values.length / 2,
      measure,
      variant,
      value: pair.estimate.value
    })),
    annotators,
    suggestions: against === null
      ? null
      : { records: against.length / 2, measure, variant, value: against.length === 0 ? null : measures.pair(against, data).value }
  }
}

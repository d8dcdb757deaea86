/**
 * One record's agreement on one question, for the review queue: 1 − the mean normalised distance between its
 * submitted answers (null with fewer than two), and whether they differ at all.
 */
import type { AgreementQuestion } from "../../../domain/Review.js"
import { codecOf } from "./answers.js"

export const recordAgreement = (
  question: AgreementQuestion,
  answers: ReadonlyArray<unknown>
): { readonly agreement: number | null; readonly disagree: boolean } => {
  const codec = codecOf(question)
  const keys: Array<string> = []
  for (const answer of answers) {
    if (answer === null || answer === undefined) continue
    const parsed = codec.parse(answer)
    if (parsed !== undefined) keys.push(parsed.key)
  }
  if (keys.length < 2) return { agreement: null, disagree: false }
  let distance = 0
  let pairs = 0
  for (let i = 0; i < keys.length; i++) {
    for (let j = i + 1; j < keys.length; j++) {
      if (keys[i] !== keys[j]) distance++
      pairs++
    }
  }
  return { agreement: 1 - distance / pairs, disagree: distance > 0 }
}

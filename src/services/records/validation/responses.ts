/** A user's response (status and answers by question name) against the dataset's questions. */
import { Either } from "effect"
import type { ResponseStatus, ResponseValues } from "../../../domain/Response.js"
import { validateAnswer } from "./answers.js"
import { type Check, fail } from "./common.js"
import type { ValidationContext } from "./context.js"

export const validateResponseValues = (
  ctx: ValidationContext,
  status: ResponseStatus,
  values: ResponseValues | null | undefined,
  recordFields: Readonly<Record<string, unknown>>
): Check =>
  Either.gen(function*() {
    // A discarded response says "I skip this record": it needs no answers. Drafts and submissions carry some.
    if (status !== "discarded" && (values === null || values === undefined)) {
      return yield* fail(`missing response values for ${status} response`)
    }
    const given = values ?? {}
    const names = Object.keys(given)
    if (status === "submitted") {
      if (names.length === 0) return yield* fail("missing response values for submitted response")
      // Drafts and discarded responses are work in progress, so only a submission must answer every required question.
      const missing = ctx.questions.find((question) => question.required && !Object.hasOwn(given, question.name))
      if (missing !== undefined) {
        return yield* fail(`missing response value for required question with name='${missing.name}'`)
      }
    }
    const unknown = names.find((name) => !ctx.questions.some((question) => question.name === name))
    if (unknown !== undefined) return yield* fail(`found response value for non configured question with name='${unknown}'`)
    // Answers kept on a discarded response are checked like a draft's: they may be partial.
    const mode = status === "submitted" ? "submitted" : "draft"
    for (const question of ctx.questions) {
      const answer = Object.hasOwn(given, question.name) ? given[question.name] : undefined
      if (answer !== undefined) yield* validateAnswer(question, answer.value, recordFields, mode)
    }
  })

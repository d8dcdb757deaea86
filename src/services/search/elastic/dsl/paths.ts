/** Where each scope lives in the document (see mapping.ts), and which scopes hold indexed values. */
import type { ResolvedScope } from "../../Query.js"
import { isIndexedAnswer } from "../mapping.js"

export const RESPONSES = "responses"

export const fieldPath = (scope: ResolvedScope): string => {
  switch (scope.kind) {
    case "record":
      return scope.property
    case "metadata":
      return `metadata.${scope.name}`
    case "suggestion":
      return `suggestions.${scope.question}.${scope.property}`
    case "responseStatus":
      return `${RESPONSES}.status`
    case "responseValue":
      return `${RESPONSES}.values.${scope.question}`
  }
}

/** Text, ranking and span answers are kept but not indexed: no filter matches them and no sort can use them. */
export const isSearchable = (scope: ResolvedScope): boolean => {
  switch (scope.kind) {
    case "suggestion":
      return scope.property !== "value" || isIndexedAnswer(scope.questionType)
    case "responseValue":
      return isIndexedAnswer(scope.questionType)
    default:
      return true
  }
}

export const isNested = (scope: ResolvedScope): boolean =>
  scope.kind === "responseStatus" || scope.kind === "responseValue"

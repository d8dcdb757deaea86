import { Schema } from "effect"
import { JsonValue, SingleLine } from "./Common.js"
import { QuestionId, SuggestionId } from "./Ids.js"
import { JsonValueInput } from "./Json.js"
import { Timestamp } from "./Timestamp.js"

export const SuggestionType = Schema.Literal("model", "human")

export const Score = Schema.Union(Schema.Number, Schema.Array(Schema.Number))

export const Suggestion = Schema.Struct({
  id: SuggestionId,
  question_id: QuestionId,
  type: Schema.NullOr(SuggestionType),
  value: JsonValue,
  agent: Schema.NullOr(Schema.String),
  score: Schema.NullOr(Score),
  inserted_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "Suggestion" })
export type Suggestion = typeof Suggestion.Type

/** Who or what made a suggestion: letters, digits, `-_:./` and spaces, with at least one letter or digit. */
const Agent = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(200),
  Schema.pattern(/^(?=.*[\p{L}\p{N}])[\p{L}\p{N}\-_:./\s]+$/u, {
    message: () => "agent may contain letters, digits, -, _, :, ., / and spaces, and needs a letter or digit"
  }),
  SingleLine
)

/**
 * A suggestion for one question. `question_name` is accepted in place of `question_id` (the Python SDK sends it).
 * The value and score are checked against the question by the service.
 */
export const SuggestionCreate = Schema.Struct({
  question_id: Schema.optional(Schema.NullOr(QuestionId)),
  question_name: Schema.optional(Schema.NullOr(Schema.String)),
  value: JsonValueInput,
  type: Schema.optional(Schema.NullOr(SuggestionType)),
  agent: Schema.optional(Schema.NullOr(Agent)),
  score: Schema.optional(Schema.NullOr(Score))
}).annotations({ identifier: "SuggestionCreate" })
export type SuggestionCreate = typeof SuggestionCreate.Type

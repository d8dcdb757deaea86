import { Effect, Schema } from "effect"

/**
 * Fills in the defaults of a payload that the API has already validated against `schema` (see `inputOf` in
 * `domain/Common.ts`), so it cannot fail here.
 */
export const withDefaults = <A, I>(schema: Schema.Schema<A, I>) => (input: I): Effect.Effect<A> =>
  Schema.decode(schema)(input).pipe(Effect.orDie)

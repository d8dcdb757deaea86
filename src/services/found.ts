import { Effect, Option } from "effect"
import { NotFound } from "../domain/Errors.js"

/** The value a lookup found, or the contract's 404: "<Entity> with id `<id>` not found". */
export const orNotFound = (entity: string, id: string) => <A, E, R>(
  lookup: Effect.Effect<Option.Option<A>, E, R>
): Effect.Effect<A, E | NotFound, R> =>
  Effect.flatMap(lookup, Option.match({ onNone: () => Effect.fail(NotFound.byId(entity, id)), onSome: Effect.succeed }))

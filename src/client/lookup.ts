/**
 * The Argilla SDK's lookup rules for workspaces and users: neither argument fails, both warn and use the id, an id
 * is fetched, a name is found by scanning the list; what is not found is `None` with a warning, never an error.
 */
import { Array as Arr, Effect, Option, Schema } from "effect"
import { NotFound } from "../domain/Errors.js"
import { InvalidId, MissingLookupArgument } from "./Errors.js"

/** The SDK's warnings quote values as Python's `repr` does. */
export const quoted = (value: string) => `'${value}'`

/** `None`, after the warning a not-found lookup gives. */
export const notFound = (warning: string) => Effect.as(Effect.logWarning(warning), Option.none())

/** An id as the caller gave it (a string), checked to be a UUID of that kind. */
export const parseId = <I>(schema: Schema.Schema<I, string>, entity: string, id: string) =>
  Schema.decodeUnknown(schema)(id).pipe(Effect.mapError(() => new InvalidId({ entity, id })))

/** A GET by id whose `NotFound` becomes `None` with the SDK's warning. */
export const getById = <A, E, R>(entity: string, id: string, get: Effect.Effect<A, E | NotFound, R>) =>
  get.pipe(
    Effect.map(Option.some),
    Effect.catchIf((error): error is NotFound => error instanceof NotFound, () =>
      notFound(`${entity} with id ${quoted(id)} not found`))
  )

export interface NameOrIdLookup<I, A, E, R> {
  readonly entity: string
  /** `name` for workspaces, `username` for users. */
  readonly nameArgument: string
  readonly name: string | undefined
  readonly id: string | undefined
  readonly idSchema: Schema.Schema<I, string>
  readonly byId: (id: I) => Effect.Effect<A, E | NotFound, R>
  readonly list: Effect.Effect<ReadonlyArray<A>, E, R>
  readonly nameOf: (item: A) => string
  /** The warning when the name matches nothing. */
  readonly notFoundByName: (name: string) => string
}

export const lookupByNameOrId = <I, A, E, R>(spec: NameOrIdLookup<I, A, E, R>) =>
  Effect.gen(function*() {
    if (spec.id !== undefined) {
      if (spec.name !== undefined) {
        yield* Effect.logWarning(`Only one of ${quoted(spec.nameArgument)} or 'id' must be provided. Using 'id'`)
      }
      const id = yield* parseId(spec.idSchema, spec.entity, spec.id)
      return yield* getById(spec.entity, spec.id, spec.byId(id))
    }
    if (spec.name === undefined) {
      return yield* new MissingLookupArgument({ expected: `${quoted(spec.nameArgument)} or 'id'` })
    }
    const name = spec.name
    const found = Arr.findFirst(yield* spec.list, (item) => spec.nameOf(item) === name)
    return Option.isSome(found) ? found : yield* notFound(spec.notFoundByName(name))
  })

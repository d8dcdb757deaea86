/**
 * What Python gives a collection through `len`, indexing, slices and iteration on the Argilla SDK's collections: each
 * operation lists afresh from the server. `full` turns a listed item into what the caller gets (datasets: fetched with
 * settings).
 */
import { Array as Arr, Effect, Option, Stream } from "effect"

/** `len`, `c[i]`, `c[a:b]` and iteration, each listing afresh. */
export interface Sequence<B, E> {
  readonly count: () => Effect.Effect<number, E>
  readonly at: (index: number) => Effect.Effect<Option.Option<B>, E>
  readonly slice: (start: number, end?: number) => Effect.Effect<ReadonlyArray<B>, E>
  readonly stream: Stream.Stream<B, E>
}

export const sequenceOf = <A, B, E, E2>(
  list: Effect.Effect<ReadonlyArray<A>, E>,
  full: (item: A) => Effect.Effect<B, E2>
): Sequence<B, E | E2> => ({
  count: (): Effect.Effect<number, E> => Effect.map(list, (items) => items.length),
  /** Negative indexes count from the end, as in Python; out of range is `None`. */
  at: (index: number): Effect.Effect<Option.Option<B>, E | E2> =>
    Effect.flatMap(list, (items) =>
      Option.match(Arr.get(items, index < 0 ? items.length + index : index), {
        onNone: () => Effect.succeedNone,
        onSome: (item) => Effect.asSome(full(item))
      })),
  /** `Array.prototype.slice` semantics (negative bounds allowed). */
  slice: (start: number, end?: number): Effect.Effect<ReadonlyArray<B>, E | E2> =>
    Effect.flatMap(list, (items) => Effect.forEach(items.slice(start, end), full)),
  /** A snapshot of one list request, each item made full as it is pulled. */
  stream: Stream.fromIterableEffect(list).pipe(Stream.mapEffect(full))
})

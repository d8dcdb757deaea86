import { Clock, Effect } from "effect"

/** The current time as a Date, from Effect's Clock so tests can control it. */
export const now: Effect.Effect<Date> = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

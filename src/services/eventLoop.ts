/**
 * Lets the event loop run: timers, sockets, other requests. A job that pages through SQLite runs synchronously
 * between its awaits (better-sqlite3 answers synchronously, and a resolved promise is a microtask), so a loop over a
 * large dataset held the process for seconds at a time: other requests waited, and keep-alive connections idle
 * past their timeout were reset under their clients (found by `npm run bench -- export`: the Hub export of 30 000
 * records). Loops over pages call this once a page.
 */
import { Effect } from "effect"

export const yieldToEventLoop: Effect.Effect<void> = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

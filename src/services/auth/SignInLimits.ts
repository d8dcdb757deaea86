/**
 * Limits on failed sign-ins (`POST /token`), so that passwords cannot be guessed at the speed bcrypt allows: per
 * username (`GLOSS_AUTH_SIGNIN_MAX_FAILURES_PER_USER`, default 10) and per client address (`..._PER_ADDRESS`,
 * default 50) within a fixed window (`..._WINDOW_SECONDS`, default 900). Once one is used up, every attempt for that
 * username or from that address, the right password included, is refused with 429 until the window ends.
 *
 * The counters are rows of `sign_in_failures`, so every server process on the database shares them. An attempt is
 * counted before its password is checked, in one atomic upsert per counter, so that many attempts sent at once
 * cannot all slip through while the first ones are still being hashed; a success then takes its count back: it
 * clears the username's counter and gives the address its attempt back.
 */
import * as crypto from "node:crypto"
import { SqlSchema } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { GlossConfig } from "../../Config.js"
import { SignInLimited } from "../../domain/Auth.js"
import { Database } from "../database/Database.js"
import { DbInt } from "../../codecs/columns.js"

/** Usernames have at most 200 characters: a longer one (no such user) is kept as a digest, not stored whole. */
const MAX_SUBJECT_NAME = 200

const userSubject = (username: string) =>
  `user:${username.length <= MAX_SUBJECT_NAME ? username : `#${crypto.createHash("sha256").update(username).digest("hex")}`}`

/** The address as the socket reports it; an IPv4 client on a dual-stack socket shows as `::ffff:1.2.3.4`. */
const addressSubject = (address: string) => `address:${address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "")}`

const Counter = Schema.Struct({ failures: DbInt, window_started_at: DbInt })

export class SignInLimits extends Effect.Service<SignInLimits>()("Gloss/SignInLimits", {
  effect: Effect.gen(function*() {
    const { auth } = yield* GlossConfig
    const { maxFailuresPerUser, maxFailuresPerAddress, windowSeconds } = auth.signIn
    const db = yield* Database
    const { sql } = db
    const windowMillis = windowSeconds * 1000

    /** One more attempt on `subject`'s counter (a new window when the last one ended); the counter after it. */
    const count = SqlSchema.single({
      Request: Schema.Struct({ subject: Schema.String, now: Schema.Number }),
      Result: Counter,
      execute: ({ now, subject }) => {
        const ended = now - windowMillis
        return sql`
          insert into sign_in_failures (subject, failures, window_started_at) values (${subject}, 1, ${now})
          on conflict (subject) do update set
            failures = case when sign_in_failures.window_started_at > ${ended}
              then sign_in_failures.failures + 1 else 1 end,
            window_started_at = case when sign_in_failures.window_started_at > ${ended}
              then sign_in_failures.window_started_at else ${now} end
          returning failures, window_started_at`
      }
    })
    const takeBack = SqlSchema.void({
      Request: Schema.String,
      execute: (subject) =>
        sql`update sign_in_failures set failures = failures - 1 where subject = ${subject} and failures > 0`
    })
    const clear = SqlSchema.void({
      Request: Schema.String,
      execute: (subject) => sql`delete from sign_in_failures where subject = ${subject}`
    })
    /**
     * Counters whose window has ended mean nothing any more. On PostgreSQL the rows another sign-in holds are left
     * for a later purge: waiting for them while holding others could deadlock with that sign-in.
     */
    const purge = SqlSchema.void({
      Request: Schema.Number,
      execute: (now) =>
        db.dialect === "Postgres"
          ? sql`delete from sign_in_failures where subject in (
              select subject from sign_in_failures where window_started_at <= ${now - windowMillis}
              for update skip locked)`
          : sql`delete from sign_in_failures where window_started_at <= ${now - windowMillis}`
    })

    const subjectsOf = (username: string, address: Option.Option<string>) => [
      ...(maxFailuresPerUser > 0 ? [{ subject: userSubject(username), max: maxFailuresPerUser }] : []),
      ...(maxFailuresPerAddress > 0 && Option.isSome(address)
        ? [{ subject: addressSubject(address.value), max: maxFailuresPerAddress }]
        : [])
    ]

    /**
     * Runs `attempt` (the password check) under the limits: refused with SignInLimited, without running it, when
     * this attempt is one too many for the username or the address; `attempt`'s failure stays counted, its success
     * is taken back.
     */
    const guard = <A, E, R>(
      username: string,
      address: Option.Option<string>,
      attempt: Effect.Effect<A, E, R>
    ): Effect.Effect<A, E | SignInLimited, R> =>
      Effect.gen(function*() {
        const subjects = subjectsOf(username, address)
        if (subjects.length === 0) return yield* attempt
        const now = yield* Clock.currentTimeMillis
        yield* db.transaction(purge(now)).pipe(Effect.orDie)
        // Always the username's counter before the address's, here and below: no two sign-ins lock them crosswise.
        const counters = yield* db.transaction(Effect.forEach(subjects, ({ subject }) => count({ subject, now }))).pipe(
          Effect.orDie
        )
        const waits = counters.flatMap((counter, i) =>
          counter.failures > (subjects[i]?.max ?? 0) ? [counter.window_started_at + windowMillis - now] : []
        )
        if (waits.length > 0) return yield* SignInLimited.after(Math.max(1, Math.ceil(Math.max(...waits) / 1000)))
        return yield* Effect.tap(attempt, () =>
          db.transaction(Effect.forEach(
            subjects,
            ({ subject }) => subject.startsWith("user:") ? clear(subject) : takeBack(subject),
            { discard: true }
          )).pipe(Effect.orDie))
      })

    return { guard } as const
  }),
  dependencies: [Database.Default]
}) {}

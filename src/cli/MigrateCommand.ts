/**
 * `gloss migrate from-argilla`: brings an Argilla deployment into this Gloss's database (src/migrate/ does the
 * work). Reads Argilla's database (`--argilla-database-url`) or its REST API (`--argilla-api-url` with an owner's
 * API key); prints a progress bar on a terminal and plain lines otherwise, then the counts per kind and the
 * verification, and exits non-zero when the verification finds a difference.
 */
import * as fs from "node:fs"
import { Command, Options } from "@effect/cli"
import { Config, Console, Effect, Layer, Option, Redacted } from "effect"
import { GlossConfig } from "../Config.js"
import { Database, SqlLive } from "../services/database/Database.js"
import { SearchIndex } from "../services/records/SearchIndex.js"
import { SearchEngineLive } from "../services/search/SearchEngineLive.js"
import { MigrationError } from "../migrate/errors.js"
import { fromApi } from "../migrate/fromApi.js"
import { fromDatabase } from "../migrate/fromDatabase.js"
import { migrate, type Progress } from "../migrate/Migration.js"
import { Target } from "../migrate/target.js"
import { Passwords } from "../services/users/Passwords.js"
import { MigrationsLive } from "./admin.js"

const MigrateLive = Layer.mergeAll(Target.Default, SearchIndex.Default, Passwords.Default).pipe(
  Layer.provideMerge(SearchEngineLive),
  Layer.provide(MigrationsLive),
  Layer.provideMerge(Database.Default),
  Layer.provideMerge(SqlLive),
  Layer.provideMerge(GlossConfig.layer)
)

/** A bar redrawn in place on a terminal; elsewhere (a log, CI) a line per dataset and per tenth of it. */
const progressTo = (stream: NodeJS.WriteStream): Progress => {
  const tty = stream.isTTY === true
  let lastTenth = -1
  return {
    step: (message) => Effect.sync(() => stream.write(`${tty ? "\r\x1b[K" : ""}${message}\n`)),
    records: (dataset, done, total) =>
      Effect.sync(() => {
        const share = total === 0 ? 1 : Math.min(1, done / total)
        if (tty) {
          const width = 30
          const filled = Math.round(share * width)
          stream.write(`\r\x1b[K${dataset} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total} records`)
          if (done >= total) stream.write("\n")
          return
        }
        const tenth = Math.floor(share * 10)
        if (done === 0) lastTenth = -1
        if (tenth !== lastTenth) {
          lastTenth = tenth
          stream.write(`${dataset}: ${done}/${total} records\n`)
        }
      })
  }
}

/** Names a source in Gloss's memory of past runs: its URL without a password (which may change between runs). */
const withoutPassword = (url: string) => url.replace(/^([a-z+]+:\/\/[^:/@]*):[^@]*@/i, "$1@")

const fromArgilla = Command.make("from-argilla", {
  databaseUrl: Options.text("argilla-database-url").pipe(
    Options.optional,
    Options.withDescription("Argilla's database: the path of its SQLite file (argilla.db) or a PostgreSQL URL. Carries everything")
  ),
  apiUrl: Options.text("argilla-api-url").pipe(
    Options.optional,
    Options.withDescription("Argilla's URL, for a deployment whose database cannot be reached (everything but passwords)")
  ),
  apiKey: Options.redacted("argilla-api-key").pipe(
    Options.withFallbackConfig(Config.redacted("ARGILLA_API_KEY")),
    Options.optional,
    Options.withDescription("An Argilla owner's API key, with --argilla-api-url (default: ARGILLA_API_KEY)")
  ),
  dryRun: Options.boolean("dry-run").pipe(
    Options.withDescription("Print what would be created, updated, skipped and deleted, per kind, and write nothing")
  ),
  since: Options.text("since").pipe(
    Options.optional,
    Options.withDescription("Read only records changed at or after this time (ISO 8601); default: since the last completed run")
  ),
  full: Options.boolean("full").pipe(Options.withDescription("Read every record, ignoring the last run's watermark")),
  onConflict: Options.choice("on-conflict", ["fail", "skip", "rename"]).pipe(
    Options.withDefault("fail" as const),
    Options.withDescription(
      "A username, workspace or dataset name Gloss already has under another id: stop before writing (fail), leave " +
        "Argilla's out (skip), or bring it in as <name>-argilla (rename)"
    )
  ),
  batchSize: Options.integer("batch-size").pipe(
    Options.withDefault(1000),
    Options.withDescription("Records per transaction (memory follows it, not the dataset)")
  ),
  passwordsFile: Options.text("passwords-file").pipe(
    Options.withDefault("argilla-passwords.txt"),
    Options.withDescription("From the API only: where the one-time passwords of the users it creates are written (mode 600)")
  )
}, (options) =>
  Effect.gen(function*() {
    if (Option.isSome(options.databaseUrl) === Option.isSome(options.apiUrl)) {
      return yield* new MigrationError({ message: "give either --argilla-database-url or --argilla-api-url" })
    }
    if (options.batchSize < 1 || options.batchSize > 10_000) {
      return yield* new MigrationError({ message: "--batch-size must be between 1 and 10000" })
    }
    const since = Option.getOrUndefined(options.since)
    const sinceDate = since === undefined ? undefined : new Date(since)
    if (sinceDate !== undefined && Number.isNaN(sinceDate.getTime())) {
      return yield* new MigrationError({ message: `--since ${since} is not a time: give ISO 8601, e.g. 2026-01-31T12:00:00Z` })
    }
    const source = Option.isSome(options.databaseUrl)
      ? yield* fromDatabase(options.databaseUrl.value)
      : yield* Option.match(options.apiKey, {
        onNone: () => Effect.fail(new MigrationError({ message: "--argilla-api-url needs an owner's API key: --argilla-api-key or ARGILLA_API_KEY" })),
        onSome: (key) => fromApi(Option.getOrThrow(options.apiUrl), Redacted.value(key))
      })
    const sourceKey = Option.isSome(options.databaseUrl)
      ? `database:${withoutPassword(options.databaseUrl.value)}`
      : `api:${Option.getOrThrow(options.apiUrl).replace(/\/+$/, "")}`
    yield* Console.log(`${options.dryRun ? "Dry run: nothing is written. " : ""}Reading ${source.description}`)
    const report = yield* migrate(source, {
      sourceKey,
      dryRun: options.dryRun,
      since: sinceDate,
      full: options.full,
      onConflict: options.onConflict,
      pageSize: options.batchSize,
      progress: progressTo(process.stderr)
    }).pipe(Effect.provide(MigrateLive), Effect.ensuring(source.close))

    yield* Console.log("")
    for (const line of report.lines(options.dryRun)) yield* Console.log(line)
    for (const note of report.notes) yield* Console.log(`note: ${note}`)
    if (report.passwordLinks.length > 0) {
      if (options.dryRun) {
        yield* Console.log(`${report.passwordLinks.length} user(s) would get a one-time password (the REST API gives no password hashes)`)
      } else {
        const lines = report.passwordLinks.map(({ link, username }) => `${username}\t${link}`)
        yield* Effect.sync(() => fs.writeFileSync(options.passwordsFile, `${lines.join("\n")}\n`, { mode: 0o600 }))
        yield* Console.log(
          `${lines.length} user(s) got a one-time password, written to ${options.passwordsFile} (readable by you only): ` +
            "Argilla's REST API does not give password hashes. Hand each user theirs; they change it on their Account page. " +
            "Their API keys are carried, so scripts keep working."
        )
      }
    }
    if (options.dryRun) return
    yield* Console.log("")
    yield* Console.log("Verification (rows and a digest of their content, per kind):")
    for (const line of report.verificationLines()) yield* Console.log(line)
    if (!report.verifiedEqual) {
      const differing = report.verified.filter((v) => !v.equal).map((v) => v.kind)
      return yield* new MigrationError({ message: `the copy differs from Argilla in: ${differing.join(", ")} (run the command again to bring them in line)` })
    }
    yield* Console.log("Argilla and Gloss hold the same data.")
  })).pipe(Command.withDescription("Copy an Argilla 2.x deployment into Gloss, keeping every id, password and API key"))

export const migrateCommand = Command.make("migrate").pipe(
  Command.withDescription("Bring data in from another tool"),
  Command.withSubcommands([fromArgilla])
)

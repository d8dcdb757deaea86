/**
 * The command line's text as its reader gets it. @effect/cli styles help and argument errors with ANSI escapes
 * whatever the output is, and a subcommand's usage line names only its last word ("$ import"). Here the escapes are
 * dropped when the stream is not a terminal or NO_COLOR is set (no-color.org), and usage lines name the command as
 * it is typed ("$ gloss records import").
 */
import { Config, Console, Effect } from "effect"

const STYLE = "(?:\\u001b\\[[0-9;]*m)*"
const ANSI = /\u001b\[[0-9;]*m/g

const header = (name: string) => new RegExp(`^${STYLE}${name}${STYLE}$`, "m")

const escaped = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/**
 * In the help of the command at `path` (["records", "import"]): its usage line, and the list of a group's
 * subcommands, with the whole command. Any other text is returned as it is.
 */
export const fullCommandNames = (text: string, path: ReadonlyArray<string>): string => {
  const leaf = path.at(-1)
  if (leaf === undefined || !header("USAGE").test(text)) return text
  const named = text.replace(new RegExp(`^\\$ ${escaped(leaf)}(?= |$)`, "gm"), `$ gloss ${path.join(" ")}`)
  const commands = header("COMMANDS").exec(named)
  if (commands === null) return named
  const listStart = commands.index + commands[0].length
  return named.slice(0, listStart) + named.slice(listStart).replace(/^ {2}- (?=[a-z])/gm, `  - ${path.join(" ")} `)
}

export interface OutputStreams {
  readonly stdout: { readonly isTTY?: boolean | undefined }
  readonly stderr: { readonly isTTY?: boolean | undefined }
}

/** A console that writes `fix`ed strings; everything else is the base console's. */
const fixingConsole = (
  base: Console.Console,
  fix: { readonly out: (text: string) => string; readonly err: (text: string) => string }
): Console.Console => {
  const map = (f: (text: string) => string, args: ReadonlyArray<unknown>) =>
    args.map((arg) => (typeof arg === "string" ? f(arg) : arg))
  return {
    ...base,
    log: (...args) => base.log(...map(fix.out, args)),
    info: (...args) => base.info(...map(fix.out, args)),
    error: (...args) => base.error(...map(fix.err, args)),
    warn: (...args) => base.warn(...map(fix.err, args))
  }
}

/** Runs `effect` (the command line for `path`) with its console output fit for where it goes. */
export const terminalOutput = (path: ReadonlyArray<string>, streams: OutputStreams) =>
<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.gen(function*() {
    const noColor = yield* Config.string("NO_COLOR").pipe(Config.withDefault(""), Effect.orElseSucceed(() => ""))
    const forStream = (stream: { readonly isTTY?: boolean | undefined }) => {
      const colour = stream.isTTY === true && noColor === ""
      return (text: string) => fullCommandNames(colour ? text : text.replace(ANSI, ""), path)
    }
    const base = yield* Effect.console
    return yield* Console.withConsole(effect, fixingConsole(base, { out: forStream(streams.stdout), err: forStream(streams.stderr) }))
  })

/**
 * `npm run bench -- compare <git ref> [suite ...] [--rounds N] [--build both|base|none] [--suite-code own|work]
 * [--option value ...]`: the
 * same suites on another version (the base) and on this working tree, one run after the other, A B A B, and a table
 * of every figure on both sides with the ratio working/base pair by pair. On a shared machine whose speed moves from
 * minute to minute, a figure measured an hour earlier says little; a pair run back to back says more, and several
 * pairs show how much the machine moved.
 *
 * The base is checked out into a scratch git worktree (removed at the end, also on failure or Ctrl-C) and built there;
 * each run is that tree's own `bench/run.ts <suite> <options>` as a process, so each side runs its own suite code on
 * its own dist/. Options other than `--rounds`, `--build` and `--suite-code` go to both sides alike (the same data
 * sizes). Each suite's table is written to `bench/results/compare-<suite>-<time>.json`; the runs' own result files go
 * to a scratch folder.
 *
 * `--suite-code work` runs this tree's `bench/run.ts` on both sides instead, the base's side on the base's server
 * (`GLOSS_BENCH_SERVER=<base worktree>/dist/gloss.mjs`, started as the base's `npm start` starts it: bench/lib/
 * processes.ts): the same measurement of both versions, and a suite written after the base can measure it. Only
 * the server is the base's then; whatever a suite runs in its own process (a ceiling, a client) is this tree's.
 *
 * `--build`: `both` (the default) builds the base and this tree (`npm run bench` has just built this tree, so it is
 * not built twice); `base` builds only the base and runs this tree's dist/ as it is; `none` builds nothing (for the
 * suites that start no server, such as `agreement`). A build is the server and the client; the web UI only when the
 * `ui` suite is among those compared (the UI's build is most of a build's time, and no other suite loads it).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { compareTable, formatTable, type Row } from "./lib/compareTable.js"

const ROOT = path.resolve(import.meta.dirname, "..")

export interface CompareSuites {
  /** The suites this tree knows. */
  readonly known: ReadonlyArray<string>
  /** The suites `npm run bench` runs when none is named. */
  readonly defaults: ReadonlyArray<string>
}

const say = (line: string) => process.stderr.write(`compare: ${line}\n`)

const git = (args: ReadonlyArray<string>, cwd = ROOT) => spawnSync("git", args, { cwd, encoding: "utf8" })

/** A failure to report in a line (a usage error exits 2, a failed run 1), not a stack trace. */
class CompareError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message)
  }
}

/** Runs a command with its output on our stderr (stdout stays the table's); throws when it fails. */
const runVisible = (command: string, args: ReadonlyArray<string>, cwd: string) => {
  const result = spawnSync(command, args, { cwd, stdio: ["ignore", 2, 2] })
  if (result.status !== 0) throw new CompareError(`${command} ${args.join(" ")} failed in ${cwd} (exit ${result.status ?? result.signal})`)
}

type Lock = { readonly packages?: Record<string, { readonly version?: string; readonly resolved?: string }> }

/**
 * The base's packages at the versions its package-lock.json names. `npm ci` refuses a lock that lacks an entry its
 * package.json implies, as an older lock can for a newer npm (the optional packages of other platforms); then
 * `npm install`, which adds the missing entries, and a check that every package the lock named kept its version
 * and source: the packages installed are still the base's.
 */
const installLocked = (ref: string, tree: string) => {
  const ci = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: tree, stdio: ["ignore", 2, 2] })
  if (ci.status === 0) return
  say(`npm ci refused ${ref}'s package-lock.json (above); npm install instead, held to the versions the lock names`)
  const lockFile = path.join(tree, "package-lock.json")
  const locked = (JSON.parse(fs.readFileSync(lockFile, "utf8")) as Lock).packages ?? {}
  runVisible("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], tree)
  const installed = (JSON.parse(fs.readFileSync(lockFile, "utf8")) as Lock).packages ?? {}
  const moved = Object.entries(locked).filter(([name, entry]) =>
    installed[name]?.version !== entry.version || installed[name]?.resolved !== entry.resolved).map(([name]) => name || "(root)")
  if (moved.length > 0) {
    throw new CompareError(`npm install moved packages ${ref}'s package-lock.json names (${moved.slice(0, 5).join(", ")}): the base's packages would not be its own`)
  }
}

interface Parsed {
  readonly ref: string
  readonly suites: ReadonlyArray<string>
  readonly rounds: number
  readonly build: "both" | "base" | "none"
  /** Whose bench/ code runs each side: each its own, or this tree's on both. */
  readonly suiteCode: "own" | "work"
  readonly options: Readonly<Record<string, string>>
}

const USAGE = "Usage: npm run bench -- compare <git ref> [suite ...] [--rounds N] [--build both|base|none] [--suite-code own|work] [--option value ...]"

const parse = (args: ReadonlyArray<string>): Parsed => {
  const positional: Array<string> = []
  const options: Record<string, string> = {}
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ""
    if (!arg.startsWith("--")) positional.push(arg)
    else if (args[i + 1] === undefined || args[i + 1]?.startsWith("--")) throw new CompareError(`Option ${arg} needs a value`, 2)
    else options[arg.slice(2)] = args[++i] ?? ""
  }
  const [ref, ...suites] = positional
  if (ref === undefined) throw new CompareError(USAGE, 2)
  const { rounds = "2", build = "both", "suite-code": suiteCode = "own", ...rest } = options
  const count = Number(rounds)
  if (!Number.isInteger(count) || count < 1) throw new CompareError(`--rounds must be a whole number ≥ 1, got ${rounds}`, 2)
  if (build !== "both" && build !== "base" && build !== "none") throw new CompareError(`--build is both, base or none, got ${build}`, 2)
  if (suiteCode !== "own" && suiteCode !== "work") throw new CompareError(`--suite-code is own or work, got ${suiteCode}`, 2)
  return { ref, suites, rounds: count, build, suiteCode, options: rest }
}

/** Which side, where its bench/run.ts runs, and the server bundle it is given (undefined: that tree's dist/). */
interface Side {
  readonly name: "base" | "work"
  readonly root: string
  readonly server?: string
}

let current: ChildProcess | undefined

/** One run of `suite` on `side`: its tree's `bench/run.ts` as a process; its figures for that suite. */
const runSuite = (side: Side, suite: string, options: Readonly<Record<string, string>>, resultsDir: string): Promise<unknown> =>
  new Promise((resolve, reject) => {
    fs.mkdirSync(resultsDir, { recursive: true })
    const env: Record<string, string | undefined> = { ...process.env, GLOSS_BENCH_RESULTS_DIR: resultsDir }
    // Each side runs its own dist/ server: a bundle named for all runs would make the two sides one.
    delete env["GLOSS_BENCH_SERVER"]
    if (side.server !== undefined) env["GLOSS_BENCH_SERVER"] = side.server
    const args = ["bench/run.ts", suite, ...Object.entries(options).flatMap(([name, value]) => [`--${name}`, value])]
    const child = spawn(path.join(side.root, "node_modules/.bin/tsx"), args, { cwd: side.root, env, stdio: ["ignore", "pipe", 2] })
    current = child
    let stdout = ""
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString()
    })
    child.once("error", reject)
    child.once("exit", (code, signal) => {
      current = undefined
      if (code !== 0) return reject(new CompareError(`${suite} on the ${side.name} side exited with ${code ?? signal}`))
      try {
        resolve(figuresOf(suite, stdout, resultsDir))
      } catch (error) {
        reject(error)
      }
    })
  })

/**
 * The suite's figures: from the run's result file, or, when the run wrote none (a run under a test, or a version of
 * run.ts that wrote no files), from the JSON document it printed.
 */
const figuresOf = (suite: string, stdout: string, resultsDir: string): unknown => {
  const file = fs.readdirSync(resultsDir).find((name) => name.startsWith(`${suite}-`) && name.endsWith(".json"))
  if (file !== undefined) return (JSON.parse(fs.readFileSync(path.join(resultsDir, file), "utf8")) as { results: unknown }).results
  // The document is the last thing printed, starting at a line of its own.
  const start = stdout.lastIndexOf("\n{\n") + 1
  const printed = JSON.parse(stdout.slice(start)) as { results?: Record<string, unknown> }
  if (printed.results?.[suite] === undefined) throw new CompareError(`the run of ${suite} printed no figures for it`)
  return printed.results[suite]
}

/** The scratch worktree of the base, and its removal (safe to call twice). */
const makeWorktree = (ref: string, commit: string) => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "gloss-compare-"))
  const tree = path.join(scratch, "tree")
  let removed = false
  const remove = () => {
    if (removed) return
    removed = true
    // The node_modules link first, so that nothing below ever follows it into this tree's packages; a folder of the
    // base's own (npm ci) goes with the worktree.
    const modules = path.join(tree, "node_modules")
    if (fs.lstatSync(modules, { throwIfNoEntry: false })?.isSymbolicLink()) fs.rmSync(modules)
    if (git(["worktree", "remove", "--force", tree]).status !== 0) git(["worktree", "prune"])
    fs.rmSync(scratch, { recursive: true, force: true })
  }
  const added = git(["worktree", "add", "--detach", tree, commit])
  if (added.status !== 0) {
    remove()
    throw new CompareError(`git worktree add ${ref} failed: ${added.stderr.trim()}`)
  }
  return { scratch, tree, remove }
}

/** The `npm run` scripts of a package.json's text. */
export const packageScripts = (text: string): ReadonlyArray<string> => {
  try {
    return Object.keys((JSON.parse(text) as { scripts?: Record<string, string> }).scripts ?? {})
  } catch {
    return []
  }
}

/**
 * What to build of a version to compare `suites` on: its server and client, or everything when the `ui` suite is
 * compared or the version has no separate server and client scripts.
 */
export const buildScripts = (suites: ReadonlyArray<string>, scripts: ReadonlyArray<string>): ReadonlyArray<string> =>
  suites.includes("ui") || !scripts.includes("build:server") || !scripts.includes("build:client")
    ? ["build"]
    : ["build:server", "build:client"]

const buildVersion = (name: string, tree: string, scripts: ReadonlyArray<string>) => {
  say(`building ${name} (${scripts.map((script) => `npm run ${script}`).join(", ")})`)
  for (const script of scripts) runVisible("npm", ["run", script, "--silent"], tree)
}

/** Whether `ref` has `bench/suites/<suite>.ts`: a suite added after the base cannot run there. */
const suiteAt = (commit: string, suite: string) => git(["cat-file", "-e", `${commit}:bench/suites/${suite}.ts`]).status === 0

const writeResult = (suite: string, document: unknown, date: string): string | undefined => {
  const explicit = process.env["GLOSS_BENCH_RESULTS_DIR"]
  // As run.ts: a run started by a test writes no result into bench/results (a small smoke run is not a result).
  if (explicit === undefined && process.env["VITEST"] !== undefined) return undefined
  const dir = explicit ?? path.join(ROOT, "bench/results")
  fs.mkdirSync(dir, { recursive: true })
  const file = path.join(dir, `compare-${suite}-${date.replaceAll(":", "-").replace(/\.\d+Z$/, "Z")}.json`)
  fs.writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`)
  return file
}

const compareRun = async (args: ReadonlyArray<string>, suites: CompareSuites): Promise<number> => {
  const { ref, rounds, build, suiteCode, options, ...parsed } = parse(args)
  const chosen = parsed.suites.length > 0 ? parsed.suites : suites.defaults
  const unknown = chosen.filter((name) => !suites.known.includes(name))
  if (unknown.length > 0) throw new CompareError(`Unknown suite(s): ${unknown.join(", ")}. Known: ${suites.known.join(", ")}`, 2)

  const resolved = git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`])
  if (resolved.status !== 0) throw new CompareError(`${ref} is not a commit of this repository`, 2)
  const baseCommit = resolved.stdout.trim()
  const headCommit = git(["rev-parse", "HEAD"]).stdout.trim()
  const dirty = git(["status", "--porcelain", "--untracked-files=no"]).stdout.trim() !== ""

  // With this tree's suite code on both sides, the base needs only a server.
  const runnable = chosen.filter((suite) => {
    if (suiteCode === "work" || suiteAt(baseCommit, suite)) return true
    say(`${suite}: not in ${ref} (${baseCommit.slice(0, 7)} has no bench/suites/${suite}.ts); skipped`)
    return false
  })
  if (runnable.length === 0) {
    say("no suite to compare")
    return 1
  }

  const worktree = makeWorktree(ref, baseCommit)
  const onSignal = (signal: NodeJS.Signals) => {
    say(`${signal}: stopping and removing ${worktree.tree}`)
    current?.kill("SIGTERM")
    worktree.remove()
    process.exit(130)
  }
  process.once("SIGINT", onSignal)
  process.once("SIGTERM", onSignal)
  try {
    say(`base ${ref} (${baseCommit.slice(0, 7)}) checked out in ${worktree.tree}`)
    const baseLock = git(["show", `${baseCommit}:package-lock.json`]).stdout
    if (baseLock === fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) {
      fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(worktree.tree, "node_modules"), "dir")
    } else {
      say(`package-lock.json differs at ${ref}: installing its packages with npm ci (slow, a few minutes)`)
      installLocked(ref, worktree.tree)
    }
    if (build !== "none") {
      const scripts = packageScripts(fs.readFileSync(path.join(worktree.tree, "package.json"), "utf8"))
      buildVersion(ref, worktree.tree, buildScripts(runnable, scripts))
    }
    // `npm run bench` builds this tree before it starts run.ts.
    if (build === "both" && process.env["npm_lifecycle_event"] !== "bench") {
      const scripts = packageScripts(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"))
      buildVersion("the working tree", ROOT, buildScripts(runnable, scripts))
    }

    const baseServer = path.join(worktree.tree, "dist/gloss.mjs")
    const sides: ReadonlyArray<Side> = suiteCode === "own"
      ? [{ name: "base", root: worktree.tree }, { name: "work", root: ROOT }]
      : [{ name: "base", root: ROOT, server: baseServer }, { name: "work", root: ROOT }]
    if (suiteCode === "work") say(`this tree's suite code on both sides; the base's server is ${baseServer}`)
    for (const suite of runnable) {
      const figures: Record<Side["name"], Array<unknown>> = { base: [], work: [] }
      const date = new Date().toISOString()
      for (let round = 1; round <= rounds; round++) {
        for (const side of sides) {
          say(`${suite}, round ${round} of ${rounds}: ${side.name === "base" ? `base ${ref}` : "working tree"}`)
          figures[side.name].push(await runSuite(side, suite, options, path.join(worktree.scratch, "results", `${suite}-${side.name}-${round}`)))
        }
      }
      const table: Array<Row> = compareTable(figures.base, figures.work)
      process.stdout.write(
        `\n${suite}: base ${ref} (${baseCommit.slice(0, 7)}) against the working tree (${headCommit.slice(0, 7)}${dirty ? "+" : ""}), ` +
          `${rounds} round${rounds === 1 ? "" : "s"}${suiteCode === "work" ? ", the working tree's suite code on both sides" : ""}; ` +
          `ratio = working / base\n\n${formatTable(table, rounds)}\n`
      )
      const file = writeResult(suite, {
        suite,
        date,
        base: { ref, commit: baseCommit },
        head: { commit: headCommit, dirty },
        machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
        options,
        suiteCode,
        rounds,
        table
      }, date)
      if (file !== undefined) say(`${suite} written to ${path.relative(process.cwd(), file)}`)
    }
    return 0
  } finally {
    process.off("SIGINT", onSignal)
    process.off("SIGTERM", onSignal)
    worktree.remove()
  }
}

/** `compare` and its arguments; the exit code. */
export const compare = async (args: ReadonlyArray<string>, suites: CompareSuites): Promise<number> => {
  try {
    return await compareRun(args, suites)
  } catch (error) {
    if (!(error instanceof CompareError)) throw error
    say(error.message)
    return error.exitCode
  }
}

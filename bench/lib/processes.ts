import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

export const ROOT = path.resolve(import.meta.dirname, "../..")
const TSX = path.join(ROOT, "node_modules/.bin/tsx")

export interface Running {
  readonly url: string
  readonly child: ChildProcess
  /** Peak resident set size of the process so far, in bytes (sampled). */
  readonly peakRss: () => number
  /**
   * Peak anonymous resident memory (RssAnon), in bytes: the RSS less the pages of files mapped into memory (SQLite's
   * memory map, a memory-mapped vector index), which the kernel shares with its page cache and can drop at will.
   */
  readonly peakRssAnon: () => number
  readonly stop: () => Promise<void>
}

/** Reads /proc for the RSS (or another `Vm`/`Rss` line) of a process (Linux), in bytes. */
const ownRss = (pid: number, line = "VmRSS"): number => {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8")
    const kb = new RegExp(`${line}:\\s+(\\d+) kB`).exec(status)?.[1]
    return kb === undefined ? 0 : Number(kb) * 1024
  } catch {
    return 0
  }
}

const childrenOf = (pid: number): Array<number> => {
  try {
    return fs.readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      fs.readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter((s) => s !== "").map(Number)
    )
  } catch {
    return []
  }
}

/**
 * RSS of the largest process in the tree: tsx runs the server in a child node process. `VmHWM` gives each process's
 * peak so far (the kernel's high-water mark), for a process this module did not start.
 */
export const rssOf = (pid: number, line = "VmRSS"): number =>
  Math.max(ownRss(pid, line), ...childrenOf(pid).map((child) => rssOf(child, line)))

/**
 * Starts `script` (run by tsx) in its own process and waits until it prints a line matching `ready`, whose first
 * group is the port. Its other output is drained (as a terminal would) so logging costs what it costs in production.
 */
export const startProcess = (
  script: string,
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  ready = /Listening on http:\/\/[^:]+:(\d+)/,
  cwd = ROOT
): Promise<Running> =>
  new Promise((resolve, reject) => {
    // `node …` runs as is; TypeScript sources run through tsx.
    const command = script === "node" ? [process.execPath] : [TSX, script]
    const child = spawn(command[0] ?? TSX, [...command.slice(1), ...args], { cwd, env: { ...process.env, ...env } })
    let output = ""
    let peak = 0
    let peakAnon = 0
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssOf(child.pid ?? 0))
      peakAnon = Math.max(peakAnon, rssOf(child.pid ?? 0, "RssAnon"))
    }, 100)
    // GLOSS_BENCH_SERVER_LOG=<file>: keep what the process prints, to find out why a run went wrong.
    const log = process.env.GLOSS_BENCH_SERVER_LOG
    const onData = (chunk: Buffer) => {
      if (log !== undefined) fs.appendFileSync(log, chunk)
      if (output.length < 100_000) output += chunk.toString()
      const port = ready.exec(output)?.[1]
      if (port !== undefined) {
        output = "\u0000"
        resolve({
          url: `http://127.0.0.1:${port}`,
          child,
          peakRss: () => Math.max(peak, rssOf(child.pid ?? 0)),
          peakRssAnon: () => Math.max(peakAnon, rssOf(child.pid ?? 0, "RssAnon")),
          stop: () =>
            new Promise((done) => {
              clearInterval(sampler)
              child.once("exit", () => done())
              child.kill("SIGTERM")
            })
        })
      }
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    child.once("exit", (code) => {
      clearInterval(sampler)
      reject(new Error(`${script} exited with ${code} before it was ready:\n${output}`))
    })
  })

/**
 * The homes (and scratch folders) made so far, removed when the benchmark exits: a million-record run leaves ~5 GB.
 * GLOSS_BENCH_KEEP_DATABASE=1 keeps them, to profile a run's queries after it (the path is printed).
 */
const homes: Array<string> = []
process.once("exit", () => {
  for (const home of homes) {
    if (process.env.GLOSS_BENCH_KEEP_DATABASE === "1") process.stderr.write(`kept ${home}\n`)
    else fs.rmSync(home, { recursive: true, force: true })
  }
})

export const tempHome = () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "gloss-bench-"))
  homes.push(home)
  return home
}

/**
 * The checkout whose `npm start` starts the server: this one, or the one GLOSS_BENCH_SERVER's bundle was built in
 * when it is `<checkout>/dist/gloss.mjs` (`compare --suite-code work` runs the base's build so): another version's
 * start script may pass other node flags, and they are part of that version.
 */
const serverCheckout = (bundle: string | undefined): string => {
  if (bundle === undefined) return ROOT
  const dist = path.dirname(path.resolve(bundle))
  const checkout = path.dirname(dist)
  return path.basename(bundle) === "gloss.mjs" && path.basename(dist) === "dist" && fs.existsSync(path.join(checkout, "package.json"))
    ? checkout
    : ROOT
}

/**
 * The command of `npm start`, read from package.json, so that the benchmark runs Gloss with the same node flags, and
 * the folder it runs in. It is run directly rather than through npm: npm does not pass SIGTERM on to its child, which
 * would outlive the benchmark, and `prestart` would rebuild everything for every server (`npm run bench` builds once
 * instead).
 */
const startCommand = (): { readonly args: Array<string>; readonly cwd: string } => {
  // GLOSS_BENCH_SERVER=<bundle>: that build of the server instead of dist/ (a test runs the benchmark small on its own
  // build, leaving dist/ alone). The bundle finds its packages from where it lies (node_modules beside its checkout).
  const bundle = process.env.GLOSS_BENCH_SERVER
  const cwd = serverCheckout(bundle)
  const scripts = JSON.parse(fs.readFileSync(path.join(cwd, "package.json"), "utf8")).scripts as Record<string, string>
  // `exec` (npm start replaces its shell with node, so signals reach the server) is the shell's business, not ours.
  const [program, ...args] = (scripts.start ?? "").replace(/^exec\s+/, "").split(/\s+/)
  if (program !== "node") throw new Error(`the start script must run node, found: ${scripts.start}`)
  return { args: bundle === undefined ? args : args.map((arg) => (arg.endsWith("dist/gloss.mjs") ? path.resolve(bundle) : arg)), cwd }
}

/** Gloss exactly as `npm start` runs it once built (node flags included), with an owner for the benchmark. */
export const startGloss = (env: Record<string, string> = {}) => {
  const { args, cwd } = startCommand()
  return startProcess("node", args, {
    GLOSS_HOME_PATH: tempHome(),
    GLOSS_PORT: "0",
    GLOSS_HOST: "127.0.0.1",
    USERNAME: "bench",
    PASSWORD: "bench-password",
    API_KEY: BENCH_API_KEY,
    GLOSS_AUTH_SECRET_KEY: "bench-secret",
    ...env
  }, undefined, cwd)
}

export const BENCH_API_KEY = "bench.api.key.0123456789abcdefghijklmnopqrstuvwxyz"

/** Clock ticks a second in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100

/** CPU seconds (user + system) the process has used so far, from /proc (Linux); 0 elsewhere. */
export const cpuSecondsOf = (pid: number | undefined): number => {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? []
    // utime and stime, the 14th and 15th fields of the line (the 12th and 13th after the command's name).
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
  } catch {
    return 0
  }
}

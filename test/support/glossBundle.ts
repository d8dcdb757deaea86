/**
 * The `gloss` command line as an operator runs it: a built bundle in its own process. Building once per source
 * state (cached under node_modules/.cache, shared by every test file and by later runs) keeps the cost of a start
 * to starting node: spawning the sources under tsx costs ~5 s and ~8 s of CPU per process here, a bundle ~0.5 s.
 *
 * Two builds of the same sources:
 * - "shipping": exactly `npm run build:server` (packages external, resolved from node_modules at run time), as the
 *   image runs it. Starting it loads ~1.8 s of modules here.
 * - "fast": the same entry with the packages bundled in (better-sqlite3, a native module, stays external). It
 *   starts in ~0.6 s, so most tests use it; the shipping build runs the entrypoint's server start and passthrough.
 *   It does not serve the web UI (that is found beside `dist/gloss.mjs`).
 */
import { execFile } from "node:child_process"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { promisify } from "node:util"

export const ROOT = path.resolve(import.meta.dirname, "../..")
const CACHE = path.join(ROOT, "node_modules/.cache/gloss-cli-test")

export type BuildKind = "fast" | "shipping"

/** `build:server`'s esbuild arguments (the server and its worker threads' entries), with `--outdir` left for us to set. */
const buildServerArgs = (): Array<string> => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
  const [command, ...args] = (pkg.scripts["build:server"] ?? "").split(/\s+/)
  if (command !== "esbuild") throw new Error(`build:server is expected to run esbuild, got: ${pkg.scripts["build:server"]}`)
  return args.filter((arg) => !arg.startsWith("--outdir="))
}

const argsFor = (kind: BuildKind): Array<string> => {
  const args = buildServerArgs()
  if (kind === "shipping") return args
  return [
    ...args.filter((arg) => arg !== "--packages=external" && arg !== "--sourcemap"),
    "--minify",
    "--external:better-sqlite3",
    "--external:pg-native",
    // usearch finds its native binary beside its own files (node-gyp-build): the vector index worker loads it there.
    "--external:usearch",
    // Bundled CommonJS packages call `require` for Node's built-ins.
    "--banner:js=import { createRequire as __glossRequire } from 'node:module'; const require = __glossRequire(import.meta.url);"
  ]
}

const sourceFiles = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)]
  )

/** Changes whenever a source file, the installed packages (the fast build holds them) or the build arguments do. */
const fingerprint = (args: ReadonlyArray<string>) => {
  const hash = crypto.createHash("sha256").update(args.join("\n"))
  const manifests = ["package.json", "package-lock.json"].map((file) => path.join(ROOT, file))
  for (const file of [...sourceFiles(path.join(ROOT, "src")), ...manifests].sort()) {
    hash.update(file).update(fs.readFileSync(file))
  }
  return hash.digest("hex").slice(0, 16)
}

/** Builds not used for an hour (their sources have changed since): no test run still needs them. */
const pruneOldBuilds = () => {
  if (!fs.existsSync(CACHE)) return
  const hourAgo = Date.now() - 3_600_000
  for (const entry of fs.readdirSync(CACHE)) {
    const dir = path.join(CACHE, entry)
    if (fs.statSync(dir).mtimeMs < hourAgo) fs.rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The path of a `gloss` bundle built from the current sources, its workers beside it. Built into a temporary folder
 * and renamed, so test files building at the same time never see half a build (and `dist/`, which other tests use,
 * is not touched).
 */
export const buildCli = async (kind: BuildKind): Promise<string> => {
  const args = argsFor(kind)
  const dir = path.join(CACHE, `${kind}-${fingerprint(args)}`)
  const file = path.join(dir, "gloss.mjs")
  if (fs.existsSync(file)) {
    // Marks it as in use, for pruneOldBuilds.
    fs.utimesSync(dir, new Date(), new Date())
    return file
  }
  pruneOldBuilds()
  fs.mkdirSync(CACHE, { recursive: true })
  const partial = `${dir}.${process.pid}.${crypto.randomBytes(4).toString("hex")}`
  await promisify(execFile)(path.join(ROOT, "node_modules/.bin/esbuild"), [...args, `--outdir=${partial}`], { cwd: ROOT })
  fs.chmodSync(path.join(partial, "gloss.mjs"), 0o755)
  try {
    fs.renameSync(partial, dir)
  } catch (error) {
    // Another test file built the same sources first: its build is this one.
    if (!fs.existsSync(file)) throw error
    fs.rmSync(partial, { recursive: true, force: true })
  }
  return file
}


/**
 * `dist/` with the server `npm run build:server` makes, built when a fresh clone has none yet, for the tests that
 * run `dist/gloss.mjs` itself (`npm start`, the benchmark comparison's working side). Built elsewhere and moved in a
 * file at a time (a rename replaces a file whole), so a test starting `dist/gloss.mjs` meanwhile never reads half of
 * one. An existing `dist/` is left as it is: it is the developer's, or another file's build of the same sources.
 */
export const ensureDistServer = async (): Promise<void> => {
  const dist = path.join(ROOT, "dist")
  if (fs.existsSync(path.join(dist, "gloss.mjs"))) return
  fs.mkdirSync(dist, { recursive: true })
  const partial = fs.mkdtempSync(path.join(dist, ".build-"))
  try {
    await promisify(execFile)(path.join(ROOT, "node_modules/.bin/esbuild"), [...buildServerArgs(), `--outdir=${partial}`], { cwd: ROOT })
    for (const file of sourceFiles(partial)) {
      const target = path.join(dist, path.relative(partial, file))
      fs.mkdirSync(path.dirname(target), { recursive: true })
      fs.renameSync(file, target)
    }
  } finally {
    fs.rmSync(partial, { recursive: true, force: true })
  }
}

/**
 * Argilla SDK compatibility: the pytest suite of this folder drives the real `argilla` Python SDK (pinned in
 * test/compat/requirements.txt) against a Gloss server: the whole suite on SQLite with the built-in search engine,
 * and the flows that reach the search engine (datasets, records, search, responses, export) on Gloss over OpenSearch
 * and over the newest Elasticsearch of test/support/searchEngines.ts.
 *
 * The SDK comes from PyPI into .venv (scripts/services.sh). Without it, or with other versions than the pinned ones,
 * the runs are skipped with a printed reason, except under CI=true, where that is a failure; a missing cluster
 * follows the rules of searchEngines.ts. Each pytest run is stopped after TIME_LIMIT_MS and then fails.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it as vitestIt, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { DeleteDatasetsAtEnd, serverEnv, type TestEngine, testEngines } from "../support/searchEngines.js"
import { OWNER, TestServer, TestServerLive } from "../support/server.js"
import { quoted, runTool, stoppedMessage } from "../support/tool.js"

const ROOT = path.resolve(import.meta.dirname, "../..")
const PYTHON = path.join(ROOT, ".venv/bin/python")
const PINS = [...fs.readFileSync(path.join(ROOT, "test/compat/requirements.txt"), "utf8").matchAll(/^([\w.-]+)==(\S+)$/gm)]
  .map(([, name, version]) => ({ name: name ?? "", version: version ?? "" }))
/** One pytest run, after which it is stopped and fails: the whole suite takes ~25 s on SQLite on two idle cores. */
const TIME_LIMIT_MS = 240_000
/** What the search engine serves: the runs on real clusters take these (users, errors and webhooks do not care). */
const ENGINE_FILES = ["test_datasets_settings.py", "test_records.py", "test_search.py", "test_responses_suggestions.py", "test_disk.py"]

/** Why the pinned packages cannot be used from .venv, or undefined when they can. */
const installed = () => {
  if (!fs.existsSync(PYTHON)) return "no .venv/bin/python"
  const script = [
    "import importlib.metadata as m, sys",
    "for name in sys.argv[1:]:",
    "    try: print(name, m.version(name))",
    "    except m.PackageNotFoundError: print(name, 'missing')"
  ].join("\n")
  const found = spawnSync(PYTHON, ["-c", script, ...PINS.map((pin) => pin.name)], { encoding: "utf8" })
  if (found.status !== 0) return `.venv/bin/python fails: ${found.stderr.trim()}`
  const versions = new Map(found.stdout.trim().split("\n").map((line) => line.split(" ") as [string, string]))
  const wrong = PINS.filter((pin) => versions.get(pin.name) !== pin.version)
  return wrong.length === 0
    ? undefined
    : `.venv has ${wrong.map((pin) => `${pin.name} ${versions.get(pin.name)} (not ${pin.version})`).join(", ")}`
}

const problem = installed()
if (problem !== undefined) {
  const reason = `${problem} (run scripts/services.sh)`
  if (process.env["CI"] === "true") throw new Error(`the Argilla SDK suite cannot run: ${reason}`)
  console.warn(`compat: skipping the Argilla SDK suite of test/compat: ${reason}`)
}

/** Runs pytest on `files` of test/compat against the server at `url` and collects what it prints. */
const pytest = (url: string, files: ReadonlyArray<string>) =>
  runTool(
    PYTHON,
    ["-m", "pytest", ...files.map((file) => path.join("test/compat", file)), "-q", "-rs", "--tb=short", "-p", "no:cacheprovider"],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        ARGILLA_API_URL: url,
        ARGILLA_API_KEY: OWNER.apiKey,
        // Only pytest's own plugins: Schemathesis (same .venv) registers one that is not wanted here.
        PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1",
        PYTHONDONTWRITEBYTECODE: "1",
        HF_HUB_OFFLINE: "1",
        HF_HUB_DISABLE_TELEMETRY: "1",
        NO_COLOR: "1",
        COLUMNS: "120"
      },
      timeLimitMs: TIME_LIMIT_MS,
      label: "compat"
    }
  )

/** From the failures, else from the summary of skips (-rs prints their reasons: SDK limitations), to the end. */
const report = (output: string) => {
  const start = [/^=+ (FAILURES|ERRORS) =+$/m, /^=+ short test summary info =+$/m].map((heading) => heading.exec(output)?.index)
    .find((index) => index !== undefined)
  return start === undefined ? output.trim().split("\n").slice(-1).join("\n") : output.slice(start).trim()
}

const runSuite = (label: string, files: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const { url } = yield* TestServer
    const { code, output } = yield* pytest(url, files)
    console.log(`compat: argilla SDK suite on ${label} (${url})\n${quoted(report(output))}`)
    expect(output).not.toContain(stoppedMessage("compat", TIME_LIMIT_MS))
    expect(code).toBe(0)
  })

const numeric = (version: string) => version.split(".").map(Number)
const newer = (a: TestEngine, b: TestEngine) => {
  const [x, y] = [numeric(a.version), numeric(b.version)]
  const index = x.findIndex((part, i) => part !== y[i])
  return index !== -1 && (x[index] ?? 0) > (y[index] ?? 0)
}
/** OpenSearch, and the newest Elasticsearch (the oldest one runs the search contract suite, not this). */
const engines = [
  ...testEngines.filter((engine) => engine.flavor === "opensearch"),
  ...testEngines.filter((engine) => engine.flavor === "elasticsearch").reduce<Array<TestEngine>>(
    (newest, engine) => (newest[0] === undefined || newer(engine, newest[0]) ? [engine] : newest),
    []
  )
]

if (problem !== undefined) {
  vitestIt.skip("the Argilla SDK suite passes against Gloss (SDK not installed)", () => {})
} else {
  describe("Argilla SDK", () => {
    // test_webhooks.py receives deliveries on loopback, which webhooks may post to only when it is listed.
    layer(TestServerLive("sqlite", { GLOSS_WEBHOOKS_ALLOWED_HOSTS: "127.0.0.1" }), { excludeTestServices: true, timeout: 60_000 })("on SQLite", (it) => {
      it.effect("the whole pytest suite of test/compat passes with the built-in search engine", () =>
        runSuite("SQLite, built-in search", ["."]), TIME_LIMIT_MS + 30_000)
    })

    for (const engine of engines) {
      layer(DeleteDatasetsAtEnd.pipe(Layer.provideMerge(TestServerLive("sqlite", serverEnv(engine)))), {
        excludeTestServices: true,
        timeout: 120_000
      })(`on ${engine.name}`, (it) => {
        it.effect(`datasets, records, search, responses and export flows pass on ${engine.name}`, () =>
          runSuite(`SQLite, ${engine.name}`, ENGINE_FILES), TIME_LIMIT_MS + 30_000)
      })
    }
  })
}

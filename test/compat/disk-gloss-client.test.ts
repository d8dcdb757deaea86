/**
 * Gloss's client and the real Argilla SDK (.venv) exchange dataset folders both ways, on one Gloss server:
 * - the SDK's `Dataset.to_disk` writes a folder (test/compat/scripts/sdk_to_disk.py) and the client's
 *   `datasets.fromDisk` imports it: the copy's records equal the source's, as far as the SDK's file carries them
 *   (it keeps no response status — all come back as drafts, as with the SDK's own `from_disk` —, no suggestion type
 *   and no vectors);
 * - the client's `datasets.toDisk` writes a folder and the SDK's `Dataset.from_disk` (scripts/sdk_from_disk.py)
 *   imports it: every record, response (status included), suggestion, vector and metadata value equals the source's.
 *
 * Without .venv/bin/python and the SDK the file is skipped with a printed reason, except under CI=true, where that
 * is a failure (as test/compat/sdk.test.ts).
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it as vitestIt, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { DatasetRecord } from "../../src/client/index.js"
import { ownerGloss } from "../client/support.js"
import { allRecords, comparable, comparableSettings, fullDataset, tempDir } from "../client/transferSupport.js"
import { unique } from "../support/fixtures.js"
import { OWNER, TestServer, TestServerLive } from "../support/server.js"
import { quoted, runTool } from "../support/tool.js"

const ROOT = path.resolve(import.meta.dirname, "../..")
const PYTHON = path.join(ROOT, ".venv/bin/python")
const TIME_LIMIT_MS = 90_000

const problem = (() => {
  if (!fs.existsSync(PYTHON)) return "no .venv/bin/python"
  const found = spawnSync(PYTHON, ["-c", "import argilla"], { encoding: "utf8" })
  return found.status === 0 ? undefined : `.venv/bin/python cannot import argilla: ${found.stderr.trim().split("\n").at(-1)}`
})()
if (problem !== undefined) {
  const reason = `${problem} (run scripts/services.sh)`
  if (process.env["CI"] === "true") throw new Error(`the SDK disk exchange tests cannot run: ${reason}`)
  console.warn(`compat: skipping the SDK ⇄ client disk exchange of test/compat/disk-gloss-client.test.ts: ${reason}`)
}

/** Runs a script of test/compat/scripts against the test server; its last line of output is its answer. */
const python = (script: string, args: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const { url } = yield* TestServer
    const { code, output } = yield* runTool(PYTHON, [path.join(ROOT, "test/compat/scripts", script), ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        ARGILLA_API_URL: url,
        ARGILLA_API_KEY: OWNER.apiKey,
        PYTHONDONTWRITEBYTECODE: "1",
        HF_HUB_OFFLINE: "1",
        HF_HUB_DISABLE_TELEMETRY: "1",
        NO_COLOR: "1"
      },
      timeLimitMs: TIME_LIMIT_MS,
      label: script
    })
    if (code !== 0) console.log(`${script} failed:\n${quoted(output)}`)
    expect(code).toBe(0)
    return output.trim().split("\n").at(-1) ?? ""
  })

/** What the SDK's file keeps of a record: no vectors, no suggestion types, responses as drafts. */
const asSdkKeepsIt = (record: ReturnType<ReturnType<typeof comparable>>) => ({
  ...record,
  status: "pending",
  vectors: {},
  suggestions: Object.fromEntries(Object.entries(record.suggestions).map(([name, s]) => [name, Object.assign({}, s, { type: null })])),
  responses: Object.fromEntries(Object.entries(record.responses).map(([user, r]) => [user, { ...r, status: "draft" }]))
})

const byExternalId = (records: ReadonlyArray<DatasetRecord>) =>
  [...records].sort((a, b) => (a.external_id ?? "").localeCompare(b.external_id ?? ""))

if (problem !== undefined) {
  vitestIt.skip("the SDK and Gloss's client exchange dataset folders (SDK not installed)", () => {})
} else {
  describe("Argilla SDK ⇄ Gloss client, dataset folders", () => {
    layer(TestServerLive("sqlite"), { excludeTestServices: true, timeout: 60_000 })("on SQLite", (it) => {
      it.scoped("a folder the SDK's to_disk wrote imports with the client's fromDisk", () =>
        Effect.gen(function*() {
          const client = yield* ownerGloss()
          const dir = path.join(tempDir(), "sdk")
          const source: { id: string; workspace: string } = JSON.parse(yield* python("sdk_to_disk.py", [dir]))
          const original = yield* client.datasets.get({ id: source.id })
          if (Option.isNone(original)) throw new Error("the SDK's dataset is not on the server")
          const copy = yield* client.datasets.fromDisk(dir, { name: unique("from-sdk"), workspace: source.workspace })
          expect(copy.records).toBe(7)
          expect(comparableSettings(copy.dataset)).toEqual(comparableSettings(original.value))
          const before = byExternalId(yield* allRecords(client, original.value)).map(comparable(original.value))
          const after = byExternalId(yield* allRecords(client, copy.dataset)).map(comparable(copy.dataset))
          expect(after).toEqual(before.map(asSdkKeepsIt))
          // The SDK's ranking suggestion (a plain list of values) came in as the API's ranked items.
          expect(after[2]?.suggestions["ranking"]?.value).toEqual([{ value: "c" }, { value: "a" }, { value: "b" }])
          expect(after[0]?.responses).not.toEqual({})
        }), TIME_LIMIT_MS + 30_000)

      it.scoped("a folder the client's toDisk wrote imports with the SDK's from_disk, statuses and vectors included", () =>
        Effect.gen(function*() {
          const client = yield* ownerGloss()
          const { dataset, workspace } = yield* fullDataset(client)
          const dir = path.join(tempDir(), "gloss")
          yield* client.datasets.toDisk(dataset, dir)
          const name = unique("from-gloss")
          const id = yield* python("sdk_from_disk.py", [dir, name, workspace.name])
          const copy = yield* client.datasets.get({ id })
          if (Option.isNone(copy)) throw new Error("the SDK's import is not on the server")
          expect(copy.value.name).toBe(name)
          expect(comparableSettings(copy.value)).toEqual(comparableSettings(dataset))
          const before = byExternalId(yield* allRecords(client, dataset)).map(comparable(dataset))
          const after = byExternalId(yield* allRecords(client, copy.value)).map(comparable(copy.value))
          expect(after).toHaveLength(23)
          expect(after).toEqual(before)
        }), TIME_LIMIT_MS + 30_000)
    })
  })
}

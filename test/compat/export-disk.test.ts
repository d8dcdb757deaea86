/**
 * The Argilla SDK reads Gloss's file export in the Argilla disk format: the server's export job writes the zip
 * (`POST /api/gloss/datasets/{id}/exports`, `GET /api/gloss/exports/{id}/file`), test/compat/scripts/sdk_from_zip.py
 * unpacks it and imports the folder with the real SDK's `Dataset.from_disk` (.venv), and the copy's records equal the
 * source's: fields, metadata, suggestions, vectors, and responses with their statuses. A record's final answer is
 * settled first: the zip's `final_answers.jsonl` holds it, and `from_disk` reads the folder with that file in it.
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
import type { Job } from "../../src/domain/Job.js"
import { ownerGloss } from "../client/support.js"
import { zipEntries } from "../support/zipEntries.js"
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
  if (process.env["CI"] === "true") throw new Error(`the SDK export test cannot run: ${reason}`)
  console.warn(`compat: skipping the SDK import of Gloss's disk export (test/compat/export-disk.test.ts): ${reason}`)
}

const byExternalId = (records: ReadonlyArray<DatasetRecord>) =>
  [...records].sort((a, b) => (a.external_id ?? "").localeCompare(b.external_id ?? ""))

if (problem !== undefined) {
  vitestIt.skip("the SDK's from_disk reads Gloss's Argilla disk export (SDK not installed)", () => {})
} else {
  describe("Argilla SDK ← Gloss's file export", () => {
    layer(TestServerLive("sqlite"), { excludeTestServices: true, timeout: 60_000 })("on SQLite", (it) => {
      it.scoped("the zip of the Argilla disk export imports with the SDK's from_disk: every record, statuses included", () =>
        Effect.gen(function*() {
          const client = yield* ownerGloss()
          const { dataset, workspace } = yield* fullDataset(client)
          const me = yield* client.me
          const first = (yield* allRecords(client, dataset)).find((record) => record.external_id === "r-0")
          if (first === undefined) throw new Error("no record r-0")
          yield* client.call(client.api.review.settle({
            path: { id: first.id },
            payload: { items: [{ question: "label", value: "neg", source: "reviewer", note: "the text is negative" }] }
          }))
          let job: Job = yield* client.call(client.api.exports.start({ path: { id: dataset.id }, payload: { format: "argilla-disk" } }))
          const deadline = Date.now() + 60_000
          while (job.status !== "finished" && job.status !== "failed" && Date.now() < deadline) {
            yield* Effect.sleep("100 millis")
            job = yield* client.call(client.api.jobs.get({ path: { id: job.id } }))
          }
          expect(job).toMatchObject({ status: "finished", progress: { done: 23, total: 23 } })
          const zip = path.join(tempDir(), "export.zip")
          const bytes = yield* client.call(client.api.exports.download({ path: { id: job.id } }))
          fs.writeFileSync(zip, bytes)
          const finals = zipEntries(bytes).get("final_answers.jsonl")?.toString().trimEnd().split("\n").map((line) => JSON.parse(line))
          expect(finals).toEqual([expect.objectContaining({
            id: "r-0",
            question: "label",
            value: "neg",
            source: "reviewer",
            note: "the text is negative",
            settled_by: me.id
          })])

          const { url } = yield* TestServer
          const name = unique("from-export")
          const { code, output } = yield* runTool(PYTHON, [path.join(ROOT, "test/compat/scripts/sdk_from_zip.py"), zip, name, workspace.name], {
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
            label: "sdk_from_zip.py"
          })
          if (code !== 0) console.log(`sdk_from_zip.py failed:\n${quoted(output)}`)
          expect(code).toBe(0)
          const answer = JSON.parse(output.trim().split("\n").at(-1) ?? "{}")
          expect(answer.count).toBe(23)
          expect(answer.label).toEqual([{ value: "pos", user_id: me.id, status: "submitted" }])

          const copy = yield* client.datasets.get({ id: answer.id })
          if (Option.isNone(copy)) throw new Error("the SDK's import is not on the server")
          expect(copy.value.name).toBe(name)
          expect(comparableSettings(copy.value)).toEqual(comparableSettings(dataset))
          const before = byExternalId(yield* allRecords(client, dataset)).map(comparable(dataset))
          const after = byExternalId(yield* allRecords(client, copy.value)).map(comparable(copy.value))
          expect(after).toEqual(before)
        }), TIME_LIMIT_MS + 30_000)
    })
  })
}

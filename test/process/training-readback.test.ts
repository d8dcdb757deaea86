/**
 * The training exports read by the tools they are made for (.venv): the server exports the settled dataset of
 * test/support/trainingDataset.ts as `training-jsonl`, `dpo`, `conll` and `spacy`, and test/process/training_readback.py
 * loads the JSON Lines with `datasets.load_dataset("json")`, reads the CoNLL columns and their entities with seqeval,
 * and turns the spaCy lines into a serialized `DocBin` with `spacy.blank("en")` and `char_span` (every span mapped).
 *
 * Without .venv/bin/python, datasets, seqeval and spaCy the file is skipped with a printed reason, except under
 * CI=true, where that is a failure (as test/compat/sdk.test.ts).
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { expect, it as vitestIt, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestServerLive } from "../support/server.js"
import { quoted, runTool } from "../support/tool.js"
import { exported, trainingDataset } from "../support/trainingDataset.js"

const ROOT = path.resolve(import.meta.dirname, "../..")
const PYTHON = path.join(ROOT, ".venv/bin/python")
const TIME_LIMIT_MS = 120_000

const problem = (() => {
  if (!fs.existsSync(PYTHON)) return "no .venv/bin/python"
  const found = spawnSync(PYTHON, ["-c", "import datasets, seqeval, spacy"], { encoding: "utf8" })
  return found.status === 0 ? undefined : `.venv/bin/python cannot import datasets, seqeval and spacy: ${found.stderr.trim().split("\n").at(-1)}`
})()
if (problem !== undefined) {
  const reason = `${problem} (run scripts/services.sh)`
  if (process.env["CI"] === "true") throw new Error(`the training read-back test cannot run: ${reason}`)
  console.warn(`process: skipping the training exports' read-back (test/process/training-readback.test.ts): ${reason}`)
}

if (problem !== undefined) {
  vitestIt.skip("datasets, seqeval and spaCy read the training exports (not installed)", () => {})
} else {
  layer(TestServerLive("sqlite"), { excludeTestServices: true, timeout: 60_000 })("training exports, read back", (it) => {
    it.effect("datasets loads training-jsonl and dpo, seqeval reads the CoNLL entities, spaCy builds a DocBin", () =>
      Effect.gen(function*() {
        const { admin, ds } = yield* trainingDataset
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gloss-training-"))
        const files = {
          "training.jsonl": { format: "training-jsonl" },
          "dpo.jsonl": { format: "dpo", question: "preference" },
          "entities.conll": { format: "conll", question: "entities" },
          "spacy.jsonl": { format: "spacy", question: "entities" }
        } as const
        for (const [file, request] of Object.entries(files)) {
          const { text } = yield* exported(admin.user.api_key, ds.id, request)
          fs.writeFileSync(path.join(dir, file), text)
        }
        const { code, output } = yield* runTool(PYTHON, [path.join(ROOT, "test/process/training_readback.py"), dir], {
          cwd: dir,
          env: {
            ...process.env,
            HF_HOME: path.join(dir, "hf"),
            HF_HUB_OFFLINE: "1",
            HF_DATASETS_OFFLINE: "1",
            HF_HUB_DISABLE_TELEMETRY: "1",
            PYTHONDONTWRITEBYTECODE: "1",
            NO_COLOR: "1"
          },
          timeLimitMs: TIME_LIMIT_MS,
          label: "training_readback.py"
        })
        fs.rmSync(dir, { recursive: true, force: true })
        if (code !== 0) console.log(`training_readback.py failed:\n${quoted(output)}`)
        expect(code).toBe(0)
        const read = JSON.parse(output.trim().split("\n").at(-1) ?? "{}")
        expect(read.training).toEqual({
          rows: 3,
          columns: ["external_id", "fields", "final", "id", "metadata"],
          external_ids: ["r0", "r2", "r3"],
          first_final_topic: "news"
        })
        expect(read.dpo).toEqual({
          rows: 5,
          columns: ["chosen", "external_id", "id", "prompt", "rejected"],
          first: { prompt: "Question 0?", chosen: "first answer 0", rejected: "second answer 0" }
        })
        expect(read.conll).toEqual({
          documents: 2,
          entities: [[["PER", "Alice"], ["LOC", "New York"]], [["PER", "Carol"], ["PER", "Dan"], ["LOC", "Paris"]]],
          f1_against_itself: 1
        })
        expect(read.spacy).toEqual({
          docs: 2,
          ents: [[["PER", "Alice"], ["LOC", "New York"]], [["PER", "Carol"], ["PER", "Dan"], ["LOC", "Paris"]]]
        })
      }), TIME_LIMIT_MS + 60_000)
  })
}

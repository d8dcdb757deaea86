/**
 * The Hub's records Parquet: every column kind the SDK's flattened rows have (text and chat fields,
 * terms/integer/float metadata, vectors, each question type's responses and suggestions) is written a row group at a
 * time and read back equal; pyarrow reads the file with the Arrow types `datasets.Dataset.from_dict` gives the SDK's
 * rows (skipped with a printed reason without `.venv/bin/python`, a failure under CI=true).
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { DatasetRecord } from "../../src/domain/Record.js"
import type { DatasetSettings } from "../../src/client/datasetSettings.js"
import { openParquetFile, openParquetWriter, ROW_GROUP_SIZE } from "../../src/transfer/hubParquet.js"
import { hubColumns, recordToRow, rowToRecord } from "../../src/transfer/hubRows.js"
import type { UserId } from "../../src/domain/Ids.js"

const PYTHON = path.resolve(import.meta.dirname, "../../.venv/bin/python")

const q = (id: string, name: string, settings: Record<string, unknown>) => ({ id, name, settings })
export const SETTINGS = {
  fields: [{ name: "text", settings: { type: "text" } }, { name: "chat", settings: { type: "chat" } }],
  questions: [
    q("00000000-0000-4000-8000-000000000001", "label", { type: "label_selection" }),
    q("00000000-0000-4000-8000-000000000002", "labels", { type: "multi_label_selection" }),
    q("00000000-0000-4000-8000-000000000003", "rating", { type: "rating" }),
    q("00000000-0000-4000-8000-000000000004", "comment", { type: "text" }),
    q("00000000-0000-4000-8000-000000000005", "ranking", { type: "ranking" }),
    q("00000000-0000-4000-8000-000000000006", "spans", { type: "span" })
  ],
  metadata: [
    { name: "source", settings: { type: "terms" } },
    { name: "year", settings: { type: "integer" } },
    { name: "weight", settings: { type: "float" } }
  ],
  vectors: [{ name: "emb", dimensions: 3 }]
} as unknown as DatasetSettings

const USER_A = "0000000a-0000-4000-8000-000000000000"
const USER_B = "0000000b-0000-4000-8000-000000000000"

const record = (i: number) => ({
  id: `10000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
  external_id: i % 3 === 0 ? null : `ext-${i}`,
  status: i % 2 === 0 ? "completed" : "pending",
  fields: { text: `text ${i}`, chat: [{ role: "user", content: `hi ${i}` }] },
  metadata: i % 4 === 0 ? {} : { source: `s${i % 5}`, year: 2000 + i, weight: i / 7 },
  vectors: i % 5 === 0 ? {} : { emb: [i, i + 0.5, -i] },
  responses: i % 2 === 0
    ? [
      {
        user_id: USER_A,
        status: "submitted",
        values: {
          label: { value: "pos" },
          labels: { value: ["a", "b"] },
          rating: { value: i % 10 },
          ranking: { value: [{ value: "x", rank: 1 }, { value: "y", rank: 2 }] },
          spans: { value: [{ start: 0, end: 4, label: "PER" }] }
        }
      },
      { user_id: USER_B, status: "draft", values: { label: { value: "neg" }, comment: { value: `c${i}` } } }
    ]
    : [],
  suggestions: i % 3 === 1
    ? [
      { question_id: SETTINGS.questions[0]!.id, value: "pos", score: 0.9, agent: "model-1" },
      { question_id: SETTINGS.questions[1]!.id, value: ["a"], score: [0.4], agent: null },
      { question_id: SETTINGS.questions[5]!.id, value: [{ start: 1, end: 2, label: "LOC" }], score: null, agent: "m" }
    ]
    : []
}) as unknown as DatasetRecord

const tempFile = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gloss-hub-parquet-")), "train.parquet")

const writeRecords = (file: string, count: number) =>
  Effect.gen(function*() {
    const writer = yield* openParquetWriter(file, hubColumns(SETTINGS))
    for (let start = 0; start < count; start += 1000) {
      const batch = Array.from({ length: Math.min(1000, count - start) }, (_, k) => recordToRow(record(start + k), SETTINGS))
      yield* writer.append(batch)
    }
    return yield* writer.close
  })

const readRows = (file: string) =>
  Effect.gen(function*() {
    const parquet = yield* openParquetFile(file)
    const rows = []
    for (const group of parquet.rowGroups) rows.push(...(yield* group))
    return { parquet, rows }
  })

describe("the Hub's records Parquet", () => {
  it("writes row groups as rows come and reads every column back", async () => {
    const file = tempFile()
    const count = ROW_GROUP_SIZE + 1234
    expect(await Effect.runPromise(writeRecords(file, count))).toBe(count)
    const { parquet, rows } = await Effect.runPromise(readRows(file))
    expect(parquet.rows).toBe(count)
    expect(parquet.rowGroups.length).toBe(2)
    expect(parquet.columns).toEqual(hubColumns(SETTINGS).map((c) => c.name))
    for (const i of [0, 1, 2, 3, 4, 5, 6, count - 1]) {
      const expected = recordToRow(record(i), SETTINGS)
      expect(rows[i]).toEqual(expected)
    }
    // Back to an upsert: external id (the SDK's id), responses per user, suggestions by question name.
    const back = rowToRecord(rows[4]!, {
      settings: SETTINGS,
      features: new Map(),
      user: (id) => id as UserId,
      fallbackId: "train_4"
    })
    expect(back.external_id).toBe("ext-4")
    expect(back.fields).toEqual({ text: "text 4", chat: [{ role: "user", content: "hi 4" }] })
    expect(back.metadata).toEqual({})
    expect(back.vectors).toEqual({ emb: [4, 4.5, -4] })
    expect(back.responses).toEqual([
      {
        user_id: USER_A,
        status: "submitted",
        values: {
          label: { value: "pos" },
          labels: { value: ["a", "b"] },
          rating: { value: 4 },
          ranking: { value: [{ rank: 1, value: "x" }, { rank: 2, value: "y" }] },
          spans: { value: [{ end: 4, label: "PER", start: 0 }] }
        }
      },
      { user_id: USER_B, status: "draft", values: { label: { value: "neg" }, comment: { value: "c4" } } }
    ])
    const withSuggestions = rowToRecord(rows[1]!, { settings: SETTINGS, features: new Map(), user: (id) => id as UserId, fallbackId: "x" })
    expect(withSuggestions.suggestions).toEqual([
      { question_name: "label", value: "pos", score: 0.9, agent: "model-1" },
      { question_name: "labels", value: ["a"], score: [0.4], agent: null },
      { question_name: "spans", value: [{ end: 2, label: "LOC", start: 1 }], score: null, agent: "m" }
    ])
    expect(withSuggestions.metadata).toEqual({ source: "s1", year: 2001, weight: 1 / 7 })
    // The SDK's label suggestions as ClassLabel indices come back as their names.
    const classLabel = rowToRecord({ ...rows[1]!, "label.suggestion": 1 }, {
      settings: SETTINGS,
      features: new Map([["label.suggestion", { _type: "ClassLabel", names: ["neg", "pos"] }]]),
      user: (id) => id as UserId,
      fallbackId: "x"
    })
    expect(classLabel.suggestions?.[0]?.value).toBe("pos")
  })

  it("writes an empty dataset as a file with the columns and no row", async () => {
    const file = tempFile()
    expect(await Effect.runPromise(writeRecords(file, 0))).toBe(0)
    const { parquet, rows } = await Effect.runPromise(readRows(file))
    expect({ rows: parquet.rows, read: rows.length, groups: parquet.rowGroups.length }).toEqual({ rows: 0, read: 0, groups: 0 })
    expect(parquet.columns).toEqual(hubColumns(SETTINGS).map((c) => c.name))
    if (fs.existsSync(PYTHON)) {
      const run = spawnSync(PYTHON, ["-c", "import sys, pyarrow.parquet as pq; t = pq.read_table(sys.argv[1]); print(t.num_rows, t.num_columns)", file], { encoding: "utf8" })
      expect(run.stdout.trim()).toBe(`0 ${hubColumns(SETTINGS).length}`)
    }
  })

  it("is read by pyarrow with the Arrow types datasets infers from the SDK's rows", { timeout: 60_000 }, async () => {
    if (!fs.existsSync(PYTHON)) {
      if (process.env["CI"] === "true") throw new Error("no .venv/bin/python: the pyarrow check cannot run")
      console.warn("hubParquet: skipping the pyarrow check: no .venv/bin/python")
      return
    }
    const file = tempFile()
    await Effect.runPromise(writeRecords(file, 50))
    const script = [
      "import sys, json, pyarrow.parquet as pq",
      "t = pq.read_table(sys.argv[1])",
      "print(json.dumps({'schema': {f.name: str(f.type) for f in t.schema}, 'rows': t.num_rows,",
      "  'row4': {k: v for k, v in t.slice(4, 1).to_pylist()[0].items() if k in ('id', 'labels.responses', 'spans.responses', 'emb', 'year')}}))"
    ].join("\n")
    const run = spawnSync(PYTHON, ["-c", script, file], { encoding: "utf8" })
    expect(run.stderr).toBe("")
    const out = JSON.parse(run.stdout)
    expect(out.rows).toBe(50)
    expect(out.schema).toMatchObject({
      id: "string",
      status: "string",
      _server_id: "string",
      text: "string",
      chat: "list<element: struct<content: string, role: string>>",
      source: "string",
      year: "int64",
      weight: "double",
      emb: "list<element: double>",
      "label.responses": "list<element: string>",
      "label.responses.users": "list<element: string>",
      "label.responses.status": "list<element: string>",
      "labels.responses": "list<element: list<element: string>>",
      "rating.responses": "list<element: int64>",
      "ranking.responses": "list<element: list<element: struct<rank: int64, value: string>>>",
      "spans.responses": "list<element: list<element: struct<end: int64, label: string, start: int64>>>",
      "label.suggestion": "string",
      "label.suggestion.score": "double",
      "label.suggestion.agent": "string",
      "labels.suggestion": "list<element: string>",
      "labels.suggestion.score": "list<element: double>",
      "spans.suggestion": "list<element: struct<end: int64, label: string, start: int64>>"
    })
    expect(out.row4).toEqual({
      id: "ext-4",
      year: null,
      emb: [4, 4.5, -4],
      "labels.responses": [["a", "b"]],
      "spans.responses": [[{ start: 0, end: 4, label: "PER" }]]
    })
  })

  it("reads an Image column (the SDK's image fields, `{bytes, path}`) back as a data URI", { timeout: 60_000 }, async () => {
    if (!fs.existsSync(PYTHON)) {
      if (process.env["CI"] === "true") throw new Error("no .venv/bin/python: the Image column check cannot run")
      console.warn("hubParquet: skipping the Image column check: no .venv/bin/python")
      return
    }
    const file = tempFile()
    const script = [
      "import io, sys, base64, datasets, PIL.Image",
      "img = PIL.Image.new('RGB', (2, 2), (255, 0, 0))",
      "ds = datasets.Dataset.from_dict({'id': ['a'], 'photo': [img]}, features=datasets.Features({'id': datasets.Value('string'), 'photo': datasets.Image()}))",
      "ds.to_parquet(sys.argv[1])",
      "buf = io.BytesIO(); img.save(buf, format='PNG'); print(base64.b64encode(buf.getvalue()).decode())"
    ].join("\n")
    const run = spawnSync(PYTHON, ["-c", script, file], { encoding: "utf8", env: { ...process.env, HF_HUB_OFFLINE: "1" } })
    expect(run.status, run.stderr).toBe(0)
    const png = run.stdout.trim().split("\n").at(-1)
    const { parquet, rows } = await Effect.runPromise(readRows(file))
    const settings = { fields: [{ name: "photo", settings: { type: "image" } }], questions: [], metadata: [], vectors: [] } as unknown as DatasetSettings
    const back = rowToRecord(rows[0]!, { settings, features: parquet.features, user: (id) => id as UserId, fallbackId: "x" })
    expect(back.external_id).toBe("a")
    expect(back.fields).toEqual({ photo: `data:image/png;base64,${png}` })
  })
})

/**
 * The Hub import's mapping (`POST /datasets/{id}/import`): which Parquet files make a subset's split, and how a
 * row's columns become a record's fields, metadata, suggestions and external id.
 */
import { describe, expect, it } from "vitest"
import type { DatasetSettings } from "../../src/transfer/dataset.js"
import { hubMapping } from "../../src/domain/HubTransfer.js"
import { mappedRecord, splitParquetFiles, unknownTargets } from "../../src/transfer/hubMapping.js"

const settings = {
  fields: [
    { name: "text", settings: { type: "text" } },
    { name: "picture", settings: { type: "image" } }
  ],
  questions: [
    { name: "label", settings: { type: "label_selection" } },
    { name: "topics", settings: { type: "multi_label_selection" } },
    { name: "order", settings: { type: "ranking" } },
    { name: "stars", settings: { type: "rating" } }
  ],
  metadata: [{ name: "lang", settings: { type: "terms" } }, { name: "year", settings: { type: "integer" } }],
  vectors: []
} as unknown as DatasetSettings

describe("splitParquetFiles", () => {
  const paths = [
    "README.md",
    "data/train-00001-of-00002.parquet",
    "data/train-00000-of-00002.parquet",
    "data/test-00000-of-00001.parquet",
    "reviews/train-00000-of-00001.parquet",
    "reviews/validation/0000.parquet",
    "train.csv"
  ]

  it("the default subset: data/ (or the root), the split's shards in order", () => {
    expect(splitParquetFiles(paths, "default", "train")).toEqual({
      files: ["data/train-00000-of-00002.parquet", "data/train-00001-of-00002.parquet"],
      splits: ["train", "test"]
    })
    expect(splitParquetFiles(["train.parquet", "test.parquet"], "default", "test").files).toEqual(["test.parquet"])
  })

  it("another subset: its folder, by file name or by a folder named after the split", () => {
    expect(splitParquetFiles(paths, "reviews", "train").files).toEqual(["reviews/train-00000-of-00001.parquet"])
    expect(splitParquetFiles(paths, "reviews", "validation").files).toEqual(["reviews/validation/0000.parquet"])
    expect(splitParquetFiles(paths, "other", "train")).toEqual({ files: [], splits: [] })
  })

  it("a split name that only prefixes another's does not match it", () => {
    expect(splitParquetFiles(["data/training-0.parquet"], "default", "train").files).toEqual([])
  })
})

describe("mappedRecord", () => {
  const mapping = hubMapping({
    fields: [{ source: "body", target: "text" }, { source: "img", target: "picture" }],
    metadata: [{ source: "language", target: "lang" }, { source: "y", target: "year" }],
    suggestions: [
      { source: "label", target: "label" },
      { source: "tags", target: "topics" },
      { source: "ranked", target: "order" },
      { source: "rating", target: "stars" }
    ],
    external_id: "uid"
  })
  const features = new Map<string, unknown>([
    ["label", { _type: "ClassLabel", names: ["neg", "pos"] }],
    ["tags", { _type: "Sequence", feature: { _type: "ClassLabel", names: ["a", "b", "c"] } }]
  ])

  it("maps every target, turning numbers into text, class indices into labels, an image into its data", () => {
    const record = mappedRecord(
      { uid: 7, body: 12, img: { bytes: "data:image/png;base64,AA==", path: null }, language: 3, y: 2020, label: 1, tags: [0, 2], ranked: ["x", "y"], rating: 4 },
      { settings, mapping, features, agent: "org/data" }
    )
    expect(record).toEqual({
      external_id: "7",
      fields: { text: "12", picture: "data:image/png;base64,AA==" },
      metadata: { lang: "3", year: 2020 },
      suggestions: [
        { question_name: "label", value: "pos", agent: "org/data" },
        { question_name: "topics", value: ["a", "c"], agent: "org/data" },
        { question_name: "order", value: [{ value: "x" }, { value: "y" }], agent: "org/data" },
        { question_name: "stars", value: 4, agent: "org/data" }
      ]
    })
  })

  it("leaves out nulls and missing columns; without an external id column the record has none", () => {
    const record = mappedRecord({ body: "hello", label: null }, { settings, mapping: hubMapping({ fields: mapping.fields }), features, agent: "a" })
    expect(record).toEqual({ fields: { text: "hello" }, metadata: {}, suggestions: [] })
  })

  it("names every target the dataset lacks", () => {
    expect(unknownTargets(settings, hubMapping({
      fields: [{ source: "a", target: "text" }, { source: "b", target: "nope" }],
      metadata: [{ source: "c", target: "missing" }],
      suggestions: [{ source: "d", target: "label" }]
    }))).toEqual(["field 'nope' does not exist in the dataset", "metadata property 'missing' does not exist in the dataset"])
  })
})

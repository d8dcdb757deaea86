/** The pure rules of what a caller sees of records (services/datasets/viewer.ts) and the Policy rows behind them. */
import { describe, expect, it } from "@effect/vitest"
import { DatasetId, UserId } from "../../src/domain/Ids.js"
import { type Grant, grantOf } from "../../src/services/Policy.js"
import { SEES_EVERYTHING, searchableBy, shownMetadata, type Viewer } from "../../src/services/datasets/viewer.js"
import type { IndexSchema } from "../../src/services/search/Query.js"

const annotator: Viewer = { responsesOf: UserId.make("00000000-0000-4000-8000-000000000001"), metadataKeys: new Set(["source"]) }
const breadth: Record<Grant, number> = { no: 0, member: 1, yes: 2 }

describe("what a caller sees of records", () => {
  it("whoever may write records may read everything (so the bulk writes show them everything without asking)", () => {
    for (const role of ["owner", "admin", "annotator"] as const) {
      const writes = breadth[grantOf(role, "records.write")]
      expect(breadth[grantOf(role, "responses.readOthers")]).toBeGreaterThanOrEqual(writes)
      expect(breadth[grantOf(role, "metadata.readHidden")]).toBeGreaterThanOrEqual(writes)
    }
  })

  it("metadata keeps only the keys shown (hidden and undeclared ones go); null stays null", () => {
    expect(shownMetadata(annotator, { source: "web", year: 2020, extra: true })).toEqual({ source: "web" })
    expect(shownMetadata(annotator, null)).toBeNull()
    const all = { source: "web", year: 2020, extra: true }
    expect(shownMetadata(SEES_EVERYTHING, all)).toBe(all)
  })

  it("a search resolves names only against the properties shown", () => {
    const schema: IndexSchema = {
      datasetId: DatasetId.make("00000000-0000-4000-8000-000000000002"),
      fields: [],
      questions: [],
      metadataProperties: [{ name: "source", settings: { type: "terms", values: null } }, { name: "year", settings: { type: "integer", min: null, max: null } }],
      vectorSettings: []
    }
    expect(searchableBy(annotator, schema).metadataProperties.map((p) => p.name)).toEqual(["source"])
    expect(searchableBy(SEES_EVERYTHING, schema)).toBe(schema)
  })
})

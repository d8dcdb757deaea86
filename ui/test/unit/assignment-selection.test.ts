import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { DatasetId } from "../../../src/domain/Ids.js"
import { queryFromUrl } from "../../src/data/search.js"
import {
  assignmentsLink,
  describeFilters,
  filterQuery,
  parseIds,
  selectionOf
} from "../../src/screens/assignment/selection.js"

const ID_A = "0192f0a4-1111-7000-8000-000000000001"
const ID_B = "0192f0a4-2222-7000-8000-000000000002"
const dataset = DatasetId.make("0192f0a4-0000-7000-8000-00000000000d")

describe("which records the assignments page selects", () => {
  it("reads the annotation view's filters, without the caller's queue, answers, sort or find-similar", () => {
    const search = new URLSearchParams({
      _status: "draft",
      _search: "kettle",
      _metadata: JSON.stringify({ batch: { kind: "terms", values: ["a"] } }),
      _response: JSON.stringify({ sentiment: { kind: "terms", values: ["positive"] } }),
      _sort: "record.inserted_at:desc",
      _record_status: "pending"
    })
    expect(filterQuery(search)).toEqual({
      query: { text: { q: "kettle" } },
      filters: {
        and: [
          { type: "terms", scope: { entity: "record", property: "status" }, values: ["pending"] },
          { type: "terms", scope: { entity: "metadata", metadata_property: "batch" }, values: ["a"] }
        ]
      }
    })
    expect(describeFilters(search)).toEqual(["containing “kettle”", "batch: a", "pending records"])
  })

  it("has no filter query when the URL names no filter (the queue tab alone is none)", () => {
    expect(filterQuery(new URLSearchParams())).toBeUndefined()
    expect(filterQuery(new URLSearchParams({ _status: "submitted", _sort: "record.inserted_at:asc" }))).toBeUndefined()
  })

  it("links from a view to the page with the view's filters only", () => {
    const view = queryFromUrl(new URLSearchParams({
      _status: "submitted",
      _metadata: JSON.stringify({ batch: { kind: "terms", values: ["b"] } }),
      _sort: "record.inserted_at:desc"
    }))
    const link = assignmentsLink(dataset, view)
    const [path, query = ""] = link.split("?")
    expect(path).toBe(`/dataset/${dataset}/assignments`)
    expect([...new URLSearchParams(query).keys()]).toEqual(["_metadata"])
    expect(assignmentsLink(dataset, queryFromUrl(new URLSearchParams()))).toBe(`/dataset/${dataset}/assignments`)
  })

  it("parses pasted ids, once each, and names what is not an id", () => {
    expect(parseIds(`${ID_A}\n${ID_B}, ${ID_A}`)).toEqual({ ids: [ID_A, ID_B], invalid: [] })
    expect(parseIds(`${ID_A} lead-3`).invalid).toEqual(["lead-3"])
  })

  it("makes the request's selection, or says why it cannot", () => {
    expect(selectionOf("all", undefined, "")).toEqual(Either.right({}))
    expect(Either.isLeft(selectionOf("filtered", undefined, ""))).toBe(true)
    const query = { query: { text: { q: "x" } } }
    expect(selectionOf("filtered", query, "")).toEqual(Either.right({ query }))
    expect(selectionOf("ids", undefined, ID_A)).toEqual(Either.right({ record_ids: [ID_A] }))
    expect(selectionOf("ids", undefined, "")).toEqual(Either.left("Paste at least one record id."))
    expect(selectionOf("ids", undefined, "nope")).toEqual(Either.left("Not record ids: nope"))
  })
})

/** Review mode's search body: the focus view's filters over everyone's responses. */
import { describe, expect, it } from "vitest"
import { canReview, reviewBody } from "../../src/data/reviewQuery.js"

const statusFilter = { type: "terms", scope: { entity: "response", property: "status" }, values: ["submitted"] }

describe("review search body", () => {
  it("asks for records with a submitted response, whatever the caller's queue, keeping text and metadata filters", () => {
    const body = reviewBody({ queue: "pending", text: " parcel ", metadata: { source: { kind: "terms", values: ["web"] } } }, "submitted")
    expect(body.query).toEqual({ text: { q: "parcel" } })
    expect(body.filters?.and).toEqual([
      statusFilter,
      { type: "terms", scope: { entity: "metadata", metadata_property: "source" }, values: ["web"] }
    ])
    // The Pending queue's record-status filter is the caller's queue, not the reviewer's.
    expect(JSON.stringify(body)).not.toContain('"pending"')
  })

  it("the browser-side views start from the submitted records too", () => {
    expect(reviewBody({ queue: "draft", text: "", metadata: {} }, "disagreement").filters?.and).toEqual([statusFilter])
    expect(reviewBody({ queue: "draft", text: "", metadata: {} }, "multiple").filters?.and).toEqual([statusFilter])
  })

  it("all records: no response-status filter, and no filters at all when nothing else is asked", () => {
    expect(reviewBody({ queue: "submitted", text: "", metadata: {} }, "all")).toEqual({})
    const body = reviewBody({ queue: "submitted", text: "", metadata: { stars: { kind: "range", ge: 3 } } }, "all")
    expect(body.filters?.and).toEqual([{ type: "range", scope: { entity: "metadata", metadata_property: "stars" }, ge: 3 }])
  })

  it("only owners and admins review", () => {
    expect([canReview("owner"), canReview("admin"), canReview("annotator"), canReview(undefined)]).toEqual([true, true, false, false])
  })
})

/** Review mode's pure parts: who may review, the queue as the URL holds it, and the request it sends. */
import { describe, expect, it } from "vitest"
import type { MyReviewRights } from "../../../src/domain/Review.js"
import { canReview, mayReview, queueRequest, reviewSearch, reviewViewFromUrl } from "../../src/data/reviewQuery.js"

const WS = "20000000-0000-4000-8000-000000000001" as MyReviewRights["workspace_ids"][number]
const OTHER = "20000000-0000-4000-8000-000000000002" as MyReviewRights["workspace_ids"][number]
const ALICE = "a0000000-0000-4000-8000-000000000001"

describe("review search", () => {
  it("keeps the text and metadata filters, not the caller's queue, record status, sort or find-similar", () => {
    const search = reviewSearch({
      queue: "pending",
      text: " parcel ",
      metadata: { source: { kind: "terms", values: ["web"] } },
      sort: [{ key: { kind: "record", property: "inserted_at" }, order: "desc" }]
    })
    expect(search).toEqual({
      query: { text: { q: "parcel" } },
      filters: { and: [{ type: "terms", scope: { entity: "metadata", metadata_property: "source" }, values: ["web"] }] }
    })
    expect(JSON.stringify(search)).not.toContain('"pending"')
  })

  it("is undefined when nothing narrows the queue", () => {
    expect(reviewSearch({ queue: "submitted", text: "  ", metadata: {} })).toBeUndefined()
  })
})

describe("review queue in the URL", () => {
  it("defaults to every answered record, least agreement first", () => {
    expect(reviewViewFromUrl(new URLSearchParams())).toEqual({
      queue: "all",
      order: "least_agreement",
      samplePercent: 10,
      seed: undefined,
      annotator: undefined,
      question: undefined
    })
  })

  it("reads a sample with its size and seed, one annotator, and drops values it does not know", () => {
    const view = reviewViewFromUrl(new URLSearchParams(
      `review_queue=sample&review_sample=25&review_seed=abc&review_annotator=${ALICE}&review_order=inserted_at`
    ))
    expect(view).toEqual({
      queue: "sample",
      order: "inserted_at",
      samplePercent: 25,
      seed: "abc",
      annotator: ALICE,
      question: undefined
    })
    expect(queueRequest(view, { queue: "pending", text: "", metadata: {} })).toEqual({
      queue: "sample",
      order: "inserted_at",
      sample_percent: 25,
      seed: "abc",
      annotator: ALICE
    })
    const odd = reviewViewFromUrl(new URLSearchParams("review_queue=mine&review_sample=250&review_annotator=alice&review_order=x"))
    expect(odd).toEqual({
      queue: "all",
      order: "least_agreement",
      samplePercent: 10,
      seed: undefined,
      annotator: undefined,
      question: undefined
    })
  })

  it("sends the sample's size only for the sample, and the search when one narrows", () => {
    const view = reviewViewFromUrl(new URLSearchParams("review_queue=disagreement&review_sample=25"))
    expect(queueRequest(view, { queue: "submitted", text: "late", metadata: {} })).toEqual({
      queue: "disagreement",
      order: "least_agreement",
      query: { query: { text: { q: "late" } } }
    })
  })

  it("narrows to one question when the agreement page links to its disagreements", () => {
    const view = reviewViewFromUrl(new URLSearchParams("review_queue=disagreement&review_question=sentiment"))
    expect(view.question).toBe("sentiment")
    expect(queueRequest(view, { queue: "submitted", text: "", metadata: {} })).toEqual({
      queue: "disagreement",
      order: "least_agreement",
      question: "sentiment"
    })
    expect(reviewViewFromUrl(new URLSearchParams("review_question=")).question).toBeUndefined()
  })
})

describe("who may review", () => {
  const none: MyReviewRights = { all: false, workspace_ids: [] }
  it("owners and admins always; annotators where the workspace names them reviewers", () => {
    expect(mayReview("owner", undefined, WS)).toBe(true)
    expect(mayReview("admin", none, WS)).toBe(true)
    expect(mayReview("annotator", undefined, WS)).toBe(false)
    expect(mayReview("annotator", none, WS)).toBe(false)
    expect(mayReview("annotator", { all: false, workspace_ids: [OTHER] }, WS)).toBe(false)
    expect(mayReview("annotator", { all: false, workspace_ids: [OTHER, WS] }, WS)).toBe(true)
    expect(mayReview(undefined, { all: true, workspace_ids: [] }, WS)).toBe(false)
  })

  it("the team's progress stays with owners and admins", () => {
    expect([canReview("owner"), canReview("admin"), canReview("annotator"), canReview(undefined)]).toEqual([true, true, false, false])
  })
})

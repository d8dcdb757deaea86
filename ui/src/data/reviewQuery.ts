/**
 * Review mode's pure parts: who may review, the review queue a reviewer picks (kept in the URL, so a queue is a
 * link and a sample stays the same sample) and the request it sends.
 */
import { Option, Schema } from "effect"
import { UserId, type WorkspaceId } from "../../../src/domain/Ids.js"
import type { MyReviewRights, ReviewQueueKind, ReviewQueueOrder, ReviewQueueRequest } from "../../../src/domain/Review.js"
import type { SearchRecordsQuery } from "../../../src/domain/Search.js"
import type { Role } from "../../../src/domain/User.js"
import { type QueueQuery, searchBody } from "./search.js"

/** Who sees the team's progress: owners and admins (reviewers are not given it). */
export const canReview = (role: Role | undefined) => role === "owner" || role === "admin"

/**
 * Who may open review mode on a dataset of `workspaceId`: owners and admins (an admin sees only their workspaces'
 * datasets), and annotators the workspace names as reviewers (`GET /api/gloss/me/review`).
 */
export const mayReview = (role: Role | undefined, rights: MyReviewRights | undefined, workspaceId: WorkspaceId | undefined) =>
  canReview(role) ||
  (role !== undefined && rights !== undefined && (rights.all || (workspaceId !== undefined && rights.workspace_ids.includes(workspaceId))))

export const isForbidden = (error: unknown) =>
  typeof error === "object" && error !== null && "_tag" in error && error._tag === "Forbidden"

export const REVIEW_QUEUES = ["all", "disagreement", "unsettled", "settled", "sample"] as const satisfies ReadonlyArray<ReviewQueueKind>
export const REVIEW_ORDERS = ["least_agreement", "inserted_at"] as const satisfies ReadonlyArray<ReviewQueueOrder>

const isQueueKind = (value: string | null): value is ReviewQueueKind => REVIEW_QUEUES.some((q) => q === value)
const isOrder = (value: string | null): value is ReviewQueueOrder => REVIEW_ORDERS.some((o) => o === value)

export const DEFAULT_SAMPLE_PERCENT = 10

/**
 * The review queue as the URL holds it: `review_queue`, `review_order`, `review_sample`, `review_seed`,
 * `review_annotator`, `review_question`.
 */
export interface ReviewView {
  readonly queue: ReviewQueueKind
  readonly order: ReviewQueueOrder
  /** 0 < percent ≤ 100, for the sample */
  readonly samplePercent: number
  readonly seed: string | undefined
  readonly annotator: UserId | undefined
  /** Agreement and disagreements of this question only (the agreement page's per-question links). */
  readonly question: string | undefined
}

const percentOf = (raw: string | null): number => {
  const value = raw === null ? Number.NaN : Number(raw)
  return Number.isFinite(value) && value > 0 && value <= 100 ? value : DEFAULT_SAMPLE_PERCENT
}

export const reviewViewFromUrl = (search: URLSearchParams): ReviewView => {
  const queue = search.get("review_queue")
  const order = search.get("review_order")
  const seed = search.get("review_seed")
  const annotator = search.get("review_annotator")
  const question = search.get("review_question")
  return {
    queue: isQueueKind(queue) ? queue : "all",
    order: isOrder(order) ? order : "least_agreement",
    samplePercent: percentOf(search.get("review_sample")),
    seed: seed === null || seed === "" ? undefined : seed,
    annotator: Option.getOrUndefined(Schema.decodeUnknownOption(UserId)(annotator)),
    question: question === null || question === "" ? undefined : question
  }
}

/** Every review parameter cleared: leaving review mode, or a fresh start. */
export const NO_REVIEW_PARAMS: Readonly<Record<string, undefined>> = {
  review_at: undefined,
  review_queue: undefined,
  review_order: undefined,
  review_sample: undefined,
  review_seed: undefined,
  review_annotator: undefined,
  review_question: undefined,
  review_show: undefined
}

/** A seed for a new sample: short, and different each time one is drawn. */
export const newSeed = (): string => Math.random().toString(36).slice(2, 10)

/**
 * The focus view's text and metadata, answer and suggestion filters, as the search that narrows a review queue or
 * the records "Accept all agreed" settles. The focus view's own queue (the caller's response status), its sort and
 * "find similar" do not apply; undefined when nothing narrows.
 */
export const reviewSearch = (query: QueueQuery): SearchRecordsQuery | undefined => {
  const body = searchBody({ ...query, queue: "submitted", sort: undefined, similar: undefined })
  const and = (body.filters?.and ?? []).filter((f) => !(f.scope.entity === "response" && f.scope.property === "status"))
  const text = body.query?.text
  if (and.length === 0 && text === undefined) return undefined
  return { ...(text === undefined ? {} : { query: { text } }), ...(and.length === 0 ? {} : { filters: { and } }) }
}

/** The review queue's request: which records, in which order, narrowed by the focus view's filters. */
export const queueRequest = (view: ReviewView, query: QueueQuery): ReviewQueueRequest => {
  const search = reviewSearch(query)
  return {
    queue: view.queue,
    order: view.order,
    ...(view.queue === "sample" ? { sample_percent: view.samplePercent, seed: view.seed ?? null } : {}),
    ...(view.annotator === undefined ? {} : { annotator: view.annotator }),
    ...(view.question === undefined ? {} : { question: view.question }),
    ...(search === undefined ? {} : { query: search })
  }
}

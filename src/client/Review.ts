/**
 * `client.review` (a Gloss extension under `/api/gloss`): agreement between annotators, the review queue, final
 * answers, accepting agreed answers, and naming reviewers. The request's defaults are filled in here, so a call
 * names only what it changes.
 */
import { Effect } from "effect"
import { DatasetId, RecordId, UserId } from "../domain/Ids.js"
import type {
  AcceptAgreedRequest,
  AgreementRequest,
  FinalAnswerSet,
  ReviewQueueKind,
  ReviewQueueOrder,
  ReviewQueueRequest
} from "../domain/Review.js"
import { parseId } from "./lookup.js"
import type { DatasetRef } from "./Records.js"
import type { Transport } from "./Transport.js"
import type { WorkspaceRef, Workspaces } from "./Workspaces.js"

type Ref = string | { readonly id: string }

const idOf = (ref: Ref) => (typeof ref === "string" ? ref : ref.id)

export interface QueueOptions extends Omit<Partial<ReviewQueueRequest>, "queue" | "order"> {
  /** Default: `all`. */
  readonly queue?: ReviewQueueKind | undefined
  /** Default: `least_agreement`. */
  readonly order?: ReviewQueueOrder | undefined
  /** Default: 0. */
  readonly offset?: number | undefined
  /** 1 to 1 000; default: 50. */
  readonly limit?: number | undefined
}

export const makeReview = ({ api, call }: Transport, workspaces: Workspaces) => {
  const dataset = (ref: DatasetRef) => parseId(DatasetId, "Dataset", ref.id)
  const record = (ref: Ref) => parseId(RecordId, "Record", idOf(ref))
  const user = (ref: Ref) => parseId(UserId, "User", idOf(ref))

  /** Over every record, or those `request.query` matches; every question, or those named. */
  const agreement = Effect.fn("GlossClient.review.agreement")(function*(ref: DatasetRef, request: AgreementRequest = {}) {
    return yield* call(api.review.agreement({ path: { id: yield* dataset(ref) }, payload: request }))
  })

  /** A page of a review queue, with everyone's answers and the final answers of each record. */
  const queue = Effect.fn("GlossClient.review.queue")(function*(ref: DatasetRef, options: QueueOptions = {}) {
    const { limit, offset, order, queue: kind, ...rest } = options
    return yield* call(api.review.queue({
      path: { id: yield* dataset(ref) },
      urlParams: { offset: offset ?? 0, limit: limit ?? 50 },
      payload: { ...rest, queue: kind ?? "all", order: order ?? "least_agreement" }
    }))
  })

  const finalAnswers = Effect.fn("GlossClient.review.finalAnswers")(function*(ref: Ref) {
    return (yield* call(api.review.finalAnswers({ path: { id: yield* record(ref) } }))).items
  })

  /** Settles the questions named (others keep their final answer); answers the record's final answers. */
  const settle = Effect.fn("GlossClient.review.settle")(function*(ref: Ref, items: ReadonlyArray<FinalAnswerSet>) {
    return (yield* call(api.review.settle({ path: { id: yield* record(ref) }, payload: { items } }))).items
  })

  const unsettle = Effect.fn("GlossClient.review.unsettle")(function*(ref: Ref, question: string) {
    return (yield* call(api.review.unsettle({ path: { id: yield* record(ref), question } }))).items
  })

  /** Default `min_answers`: 2. */
  const acceptAgreed = Effect.fn("GlossClient.review.acceptAgreed")(
    function*(ref: DatasetRef, request: Partial<AcceptAgreedRequest> = {}) {
      return yield* call(api.review.acceptAgreed({
        path: { id: yield* dataset(ref) },
        payload: { ...request, min_answers: request.min_answers ?? 2 }
      }))
    }
  )

  /** A workspace's reviewers, by workspace name or id; naming one needs an owner or an admin of it. */
  const reviewers = {
    list: Effect.fn("GlossClient.review.reviewers.list")(function*(workspace: WorkspaceRef) {
      const { id } = yield* workspaces.resolve(workspace)
      return (yield* call(api.review.reviewers({ path: { id } }))).items
    }),
    add: Effect.fn("GlossClient.review.reviewers.add")(function*(workspace: WorkspaceRef, member: Ref) {
      const { id } = yield* workspaces.resolve(workspace)
      return yield* call(api.review.addReviewer({ path: { id }, payload: { user_id: yield* user(member) } }))
    }),
    remove: Effect.fn("GlossClient.review.reviewers.remove")(function*(workspace: WorkspaceRef, member: Ref) {
      const { id } = yield* workspaces.resolve(workspace)
      return yield* call(api.review.removeReviewer({ path: { id, user_id: yield* user(member) } }))
    })
  }

  /** Where the caller may review. */
  const mine = () => call(api.review.mine()).pipe(Effect.withSpan("GlossClient.review.mine"))

  return { agreement, queue, finalAnswers, settle, unsettle, acceptAgreed, reviewers, mine } as const
}

export type Review = ReturnType<typeof makeReview>

/**
 * Who may review where, and naming reviewers. Owners review everywhere; admins in the workspaces they belong to
 * (Policy's `review.read` row); an annotator where `workspace_reviewers` names them (a row there needs the
 * membership, see ReviewersRepo). Reviewing is reading the agreement and the review queue with everyone's answers,
 * and settling final answers; it grants nothing on Argilla's endpoints. Naming reviewers: owners and member admins.
 */
import { Effect, Option } from "effect"
import { type DatasetId, type RecordId, type UserId, type WorkspaceId } from "../../domain/Ids.js"
import type { Reviewer } from "../../domain/Review.js"
import type { User } from "../../domain/User.js"
import { Forbidden, NotFound, Unprocessable } from "../../domain/Errors.js"
import { now } from "../clock.js"
import { DatasetsRepo } from "../datasets/DatasetsRepo.js"
import { orNotFound } from "../found.js"
import { MembershipsRepo } from "../MembershipsRepo.js"
import { Policy } from "../Policy.js"
import { RecordsRepo } from "../records/RecordsRepo.js"
import { WorkspacesRepo } from "../workspaces/WorkspacesRepo.js"
import { type NamedReviewerRow, ReviewersRepo } from "./ReviewersRepo.js"

const toReviewer = (row: NamedReviewerRow): Reviewer => row

export class ReviewRights extends Effect.Service<ReviewRights>()("Gloss/ReviewRights", {
  effect: Effect.gen(function*() {
    const policy = yield* Policy
    const reviewers = yield* ReviewersRepo
    const datasets = yield* DatasetsRepo
    const records = yield* RecordsRepo
    const workspaces = yield* WorkspacesRepo
    const memberships = yield* MembershipsRepo

    /** Whether `actor` may review in `workspaceId`. */
    const canReview = (actor: User, workspaceId: WorkspaceId) =>
      Effect.flatMap(policy.can(actor, "review.read", workspaceId), (allowed) =>
        allowed
          ? Effect.succeed(true)
          : actor.role === "annotator"
          ? Effect.map(reviewers.find({ workspace_id: workspaceId, user_id: actor.id }), Option.isSome)
          : Effect.succeed(false))

    const requireReview = (actor: User, workspaceId: WorkspaceId) =>
      Effect.flatMap(canReview(actor, workspaceId), (allowed) =>
        allowed ? Effect.void : Effect.fail(Forbidden.operationNotAllowed()))

    /** The dataset, once `actor` may review in its workspace (404, then 403). */
    const dataset = (actor: User, id: DatasetId) =>
      datasets.findById(id).pipe(
        orNotFound("Dataset", id),
        Effect.tap((found) => requireReview(actor, found.workspace_id))
      )

    /** The record and its dataset, once `actor` may review in the dataset's workspace (404, then 403). */
    const record = (actor: User, id: RecordId) =>
      Effect.gen(function*() {
        const row = yield* records.findById(id).pipe(orNotFound("Record", id))
        return { record: row, dataset: yield* dataset(actor, row.dataset_id) }
      })

    /** The workspace, once `actor` may name its reviewers (404, then 403). */
    const managed = (actor: User, workspaceId: WorkspaceId) =>
      workspaces.findById(workspaceId).pipe(
        orNotFound("Workspace", workspaceId),
        Effect.tap(() => policy.require(actor, "review.manageReviewers", workspaceId))
      )

    const list = Effect.fn("ReviewRights.list")(function*(actor: User, workspaceId: WorkspaceId) {
      yield* managed(actor, workspaceId)
      return { items: (yield* reviewers.list(workspaceId)).map(toReviewer) }
    })

    /** Idempotent: naming a reviewer again answers the existing grant. Only members can be named. */
    const add = Effect.fn("ReviewRights.add")(function*(actor: User, workspaceId: WorkspaceId, userId: UserId) {
      const workspace = yield* managed(actor, workspaceId)
      if (Option.isNone(yield* memberships.isMember({ user_id: userId, workspace_id: workspaceId }))) {
        return yield* new Unprocessable({
          detail: `User with id \`${userId}\` is not a member of workspace \`${workspace.name}\`: add them to it first`
        })
      }
      yield* reviewers.insert({ workspace_id: workspaceId, user_id: userId, inserted_at: yield* now })
      const found = yield* reviewers.find({ workspace_id: workspaceId, user_id: userId })
      // The membership can go between the insert and the read (its removal takes the grant with it).
      return yield* Option.match(found, {
        onSome: (row) => Effect.succeed(toReviewer(row)),
        onNone: () => Effect.fail(new Unprocessable({ detail: `User with id \`${userId}\` left workspace \`${workspace.name}\`` }))
      })
    })

    const remove = Effect.fn("ReviewRights.remove")(function*(actor: User, workspaceId: WorkspaceId, userId: UserId) {
      yield* managed(actor, workspaceId)
      const found = yield* reviewers.find({ workspace_id: workspaceId, user_id: userId })
      if (Option.isNone(found)) {
        return yield* new NotFound({ detail: `User with id \`${userId}\` is not a reviewer of workspace with id \`${workspaceId}\`` })
      }
      yield* reviewers.remove({ workspace_id: workspaceId, user_id: userId })
      return toReviewer(found.value)
    })

    /** Where the caller may review: owners everywhere; admins where they are members; annotators where named. */
    const mine = Effect.fn("ReviewRights.mine")(function*(actor: User) {
      if (actor.role === "owner") return { all: true, workspace_ids: [] }
      const named = yield* reviewers.workspacesOf(actor.id)
      const member = actor.role === "admin" ? (yield* workspaces.listByMember(actor.id)).map((w) => w.id) : []
      return { all: false, workspace_ids: [...new Set([...member, ...named])] }
    })

    return { canReview, requireReview, dataset, record, list, add, remove, mine } as const
  }),
  dependencies: [
    Policy.Default,
    MembershipsRepo.Default,
    ReviewersRepo.Default,
    DatasetsRepo.Default,
    RecordsRepo.Default,
    WorkspacesRepo.Default
  ]
}) {}

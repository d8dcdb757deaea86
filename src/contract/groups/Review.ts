import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Forbidden, NotFound, Unprocessable } from "../../domain/Errors.js"
import { DatasetId, RecordId, UserId, WorkspaceId } from "../../domain/Ids.js"
import {
  AcceptAgreedRequest,
  AcceptAgreedResult,
  AgreementReport,
  AgreementRequest,
  FinalAnswers,
  FinalAnswersUpdate,
  MyReviewRights,
  ReviewerCreate,
  Reviewer,
  Reviewers,
  ReviewQueuePage,
  ReviewQueueRequest
} from "../../domain/Review.js"
import { Authentication } from "../Authentication.js"

const OfDataset = Schema.Struct({ id: DatasetId })
const OfRecord = Schema.Struct({ id: RecordId })
const OfWorkspace = Schema.Struct({ id: WorkspaceId })
const Paging = Schema.Struct({
  offset: Schema.optionalWith(Schema.NumberFromString.pipe(Schema.int(), Schema.nonNegative()), { default: () => 0 }),
  limit: Schema.optionalWith(Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 1000)), { default: () => 50 })
})

/**
 * Review (a Gloss extension outside Argilla's paths): agreement between annotators, the review queue, final answers
 * and who may review. Owners review everywhere; admins and the reviewers a workspace names, in that workspace.
 */
export class ReviewGroup extends HttpApiGroup.make("review")
  .add(
    HttpApiEndpoint.post("agreement", "/datasets/:id/agreement").setPath(OfDataset).setPayload(AgreementRequest)
      .addSuccess(AgreementReport).addError(Unprocessable.http)
      .annotate(
        OpenApi.Description,
        "Agreement between annotators per question, over every record (or those a search matches), from submitted " +
          "answers: the measure that fits each question type, the annotator × annotator matrix, each annotator " +
          "against the rest and against the suggestions."
      )
  )
  .add(
    HttpApiEndpoint.post("queue", "/datasets/:id/review/records").setPath(OfDataset).setUrlParams(Paging)
      .setPayload(ReviewQueueRequest).addSuccess(ReviewQueuePage).addError(Unprocessable.http)
      .annotate(
        OpenApi.Description,
        "A page of the review queue: records with everyone's answers, their agreement, the questions they disagree " +
          "on and their final answers; all, disagreements, unsettled, settled, or a stable random sample."
      )
  )
  .add(
    HttpApiEndpoint.get("finalAnswers", "/records/:id/final-answers").setPath(OfRecord).addSuccess(FinalAnswers)
      .annotate(OpenApi.Description, "The record's final answers, one per settled question.")
  )
  .add(
    HttpApiEndpoint.put("settle", "/records/:id/final-answers").setPath(OfRecord).setPayload(FinalAnswersUpdate)
      .addSuccess(FinalAnswers).addError(Unprocessable.http)
      .annotate(
        OpenApi.Description,
        "Settle questions of a record: each value is checked as a response's would be; questions not named keep " +
          "their final answer. Answers the record's final answers."
      )
  )
  .add(
    HttpApiEndpoint.del("unsettle", "/records/:id/final-answers/:question")
      .setPath(Schema.Struct({ id: RecordId, question: Schema.String })).addSuccess(FinalAnswers)
      .annotate(OpenApi.Description, "Remove a question's final answer; answers the record's remaining final answers.")
  )
  .add(
    HttpApiEndpoint.post("acceptAgreed", "/datasets/:id/final-answers/accept-agreed").setPath(OfDataset)
      .setPayload(AcceptAgreedRequest).addSuccess(AcceptAgreedResult).addError(Unprocessable.http)
      .annotate(
        OpenApi.Description,
        "Where every submitted answer to a question agrees (at least `min_answers` of them), make it the final " +
          "answer; questions already settled are left alone."
      )
  )
  .add(
    HttpApiEndpoint.get("reviewers", "/workspaces/:id/reviewers").setPath(OfWorkspace).addSuccess(Reviewers)
      .annotate(OpenApi.Description, "The workspace's reviewers (members given review rights).")
  )
  .add(
    HttpApiEndpoint.post("addReviewer", "/workspaces/:id/reviewers").setPath(OfWorkspace).setPayload(ReviewerCreate)
      .addSuccess(Reviewer, { status: 201 }).addError(Unprocessable.http)
      .annotate(
        OpenApi.Description,
        "Give a member of the workspace review rights there (owners, and the workspace's admins). Their role does " +
          "not change: Argilla's clients still see an annotator."
      )
  )
  .add(
    HttpApiEndpoint.del("removeReviewer", "/workspaces/:id/reviewers/:user_id")
      .setPath(Schema.Struct({ id: WorkspaceId, user_id: UserId })).addSuccess(Reviewer)
      .annotate(OpenApi.Description, "Take a reviewer's rights back.")
  )
  .add(
    HttpApiEndpoint.get("mine", "/me/review").addSuccess(MyReviewRights)
      .annotate(OpenApi.Description, "Where the caller may review.")
  )
  .addError(NotFound.http)
  .addError(Forbidden.http)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Review: agreement, final answers and review rights (Gloss extension)")
{}

/**
 * Review, a Gloss extension under `/api/gloss`: how much annotators agree (per question, with the measure that fits
 * its type), the final answer a reviewer settles each question of a record on, the review queue, and who may review
 * in a workspace besides its owners and admins. Argilla has none of it, so none of it appears in `/api/v1`: a user
 * given review rights keeps the role Argilla's SDK knows (`annotator`).
 */
import { Schema } from "effect"
import { JsonValue } from "./Common.js"
import { DatasetId, RecordId, UserId, WorkspaceId } from "./Ids.js"
import { JsonValueInput } from "./Json.js"
import { QuestionSettings } from "./Question.js"
import { DatasetRecord } from "./Record.js"
import { SearchRecordsQuery } from "./Search.js"
import { Timestamp } from "./Timestamp.js"

// --- Agreement ---------------------------------------------------------------------------------------------------

/**
 * One figure: `measure` names the statistic, `variant` its distance or matching rule; `value` is null where the
 * statistic is undefined on these answers (too few records, one value only), and `note` then says why.
 *
 * - `krippendorff_alpha`: variants `nominal`, `ordinal`, `interval`, `masi`, `jaccard`, `rank`;
 * - `cohen_kappa`: the mean over annotator pairs (per pair in `pairs`); `fleiss_kappa`: only where every compared
 *   record has the same number of answers;
 * - `f1`: spans, variants `exact` and `overlap` (pairwise, mean over pairs);
 * - `exact_match`: the share of answer pairs that are equal (text: after trimming and case folding);
 * - `kendall_w`: rankings where every answer ranks every option.
 */
export const AgreementMeasure = Schema.Literal(
  "krippendorff_alpha",
  "cohen_kappa",
  "fleiss_kappa",
  "f1",
  "exact_match",
  "kendall_w"
)
export type AgreementMeasure = typeof AgreementMeasure.Type

export const AgreementFigure = Schema.Struct({
  measure: AgreementMeasure,
  variant: Schema.NullOr(Schema.String),
  value: Schema.NullOr(Schema.Number),
  /** How many records (units) the figure is computed over. */
  records: Schema.Int,
  note: Schema.NullOr(Schema.String)
}).annotations({ identifier: "AgreementFigure" })
export type AgreementFigure = typeof AgreementFigure.Type

/** Two annotators compared on the records both answered: one cell of the annotator × annotator matrix. */
export const AnnotatorPair = Schema.Struct({
  a: UserId,
  b: UserId,
  records: Schema.Int,
  measure: AgreementMeasure,
  variant: Schema.NullOr(Schema.String),
  value: Schema.NullOr(Schema.Number)
}).annotations({ identifier: "AnnotatorPair" })
export type AnnotatorPair = typeof AnnotatorPair.Type

/** One annotator against the rest of the team, and against the question's suggestions (the model). */
export const AnnotatorAgreement = Schema.Struct({
  user_id: UserId,
  username: Schema.String,
  /** Submitted answers to this question. */
  answers: Schema.Int,
  /** The mean of this annotator's pair figures with each other annotator (the `pairs` measure). */
  with_others: Schema.NullOr(Schema.Number),
  /** The same measure between this annotator and the suggestion, over records that have both. */
  with_suggestions: Schema.NullOr(Schema.Number),
  records_with_suggestion: Schema.Int
}).annotations({ identifier: "AnnotatorAgreement" })
export type AnnotatorAgreement = typeof AnnotatorAgreement.Type

/** Per label, for multi-label and span questions. */
export const LabelAgreement = Schema.Struct({
  label: Schema.String,
  figures: Schema.Array(AgreementFigure)
}).annotations({ identifier: "LabelAgreement" })
export type LabelAgreement = typeof LabelAgreement.Type

export const QuestionAgreement = Schema.Struct({
  question: Schema.String,
  type: Schema.String,
  /** Records with at least two submitted answers to this question: the ones compared. */
  records_compared: Schema.Int,
  /** Records with exactly one submitted answer, and with none: counted apart, never compared. */
  records_single: Schema.Int,
  records_unanswered: Schema.Int,
  /** Compared records whose answers are not all equal. */
  records_disagreeing: Schema.Int,
  figures: Schema.Array(AgreementFigure),
  labels: Schema.Array(LabelAgreement),
  pairs: Schema.Array(AnnotatorPair),
  annotators: Schema.Array(AnnotatorAgreement),
  /** The suggestions against the people (the majority answer where there is one), or null without suggestions. */
  suggestions: Schema.NullOr(Schema.Struct({
    records: Schema.Int,
    measure: AgreementMeasure,
    variant: Schema.NullOr(Schema.String),
    value: Schema.NullOr(Schema.Number)
  }))
}).annotations({ identifier: "QuestionAgreement" })
export type QuestionAgreement = typeof QuestionAgreement.Type

/** `POST /api/gloss/datasets/{id}/agreement`: without `query`, every record; with it, those the search matches. */
export const AgreementRequest = Schema.Struct({
  query: Schema.optional(Schema.NullOr(SearchRecordsQuery)),
  /** Only these questions (by name); every question when absent. */
  questions: Schema.optional(Schema.NullOr(Schema.Array(Schema.String)))
}).annotations({ identifier: "AgreementRequest" })
export type AgreementRequest = typeof AgreementRequest.Type

export const AgreementReport = Schema.Struct({
  dataset_id: DatasetId,
  /** Records considered (all, or those the query matched). */
  records: Schema.Int,
  questions: Schema.Array(QuestionAgreement),
  computed_at: Timestamp
}).annotations({ identifier: "AgreementReport" })
export type AgreementReport = typeof AgreementReport.Type

// --- Final answers -----------------------------------------------------------------------------------------------

/**
 * Where a final answer came from: one annotator's `response` (`source_user_id` names them), the question's
 * `suggestion`, the `reviewer`'s own answer, or `agreement` (accepted in bulk where every submitted answer agreed).
 */
export const FinalAnswerSource = Schema.Literal("response", "suggestion", "reviewer", "agreement")
export type FinalAnswerSource = typeof FinalAnswerSource.Type

export const FinalAnswer = Schema.Struct({
  record_id: RecordId,
  question: Schema.String,
  value: JsonValue,
  source: FinalAnswerSource,
  source_user_id: Schema.NullOr(UserId),
  note: Schema.NullOr(Schema.String),
  settled_by: UserId,
  inserted_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "FinalAnswer" })
export type FinalAnswer = typeof FinalAnswer.Type

export const FinalAnswers = Schema.Struct({ items: Schema.Array(FinalAnswer) }).annotations({
  identifier: "FinalAnswers"
})
export type FinalAnswers = typeof FinalAnswers.Type

/** One question settled: the value is checked against the question as a response's value is. */
export const FinalAnswerSet = Schema.Struct({
  question: Schema.String,
  value: JsonValueInput,
  source: FinalAnswerSource,
  source_user_id: Schema.optional(Schema.NullOr(UserId)),
  note: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(10_000))))
})
export type FinalAnswerSet = typeof FinalAnswerSet.Type

/** `PUT /api/gloss/records/{id}/final-answers`: the questions named are settled (or re-settled); others are kept. */
export const FinalAnswersUpdate = Schema.Struct({
  items: Schema.Array(FinalAnswerSet).pipe(Schema.minItems(1), Schema.maxItems(250))
}).annotations({ identifier: "FinalAnswersUpdate" })
export type FinalAnswersUpdate = typeof FinalAnswersUpdate.Type

/**
 * `POST /api/gloss/datasets/{id}/final-answers/accept-agreed`: for every record (or those `query` matches) whose
 * submitted answers to a question all agree (at least `min_answers` of them), that answer becomes the final one.
 * A question already settled is left as it is.
 */
export const AcceptAgreedRequest = Schema.Struct({
  query: Schema.optional(Schema.NullOr(SearchRecordsQuery)),
  questions: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
  min_answers: Schema.optionalWith(Schema.Int.pipe(Schema.greaterThanOrEqualTo(1)), { default: () => 2 })
}).annotations({ identifier: "AcceptAgreedRequest" })
export type AcceptAgreedRequest = typeof AcceptAgreedRequest.Type

export const AcceptAgreedResult = Schema.Struct({
  /** Final answers written, one per record and question. */
  settled: Schema.Int,
  /** Records with at least one question settled by this call. */
  records: Schema.Int
}).annotations({ identifier: "AcceptAgreedResult" })
export type AcceptAgreedResult = typeof AcceptAgreedResult.Type

// --- The review queue --------------------------------------------------------------------------------------------

/**
 * Which records: `all` with any submitted answer; `disagreement`, where some question's submitted answers differ;
 * `unsettled`, answered but some answered question has no final answer; `settled`, every answered question has one;
 * `sample`, a stable random `sample_percent` % of the answered records (the same `seed` gives the same sample).
 */
export const ReviewQueueKind = Schema.Literal("all", "disagreement", "unsettled", "settled", "sample")
export type ReviewQueueKind = typeof ReviewQueueKind.Type

export const ReviewQueueOrder = Schema.Literal("least_agreement", "inserted_at")
export type ReviewQueueOrder = typeof ReviewQueueOrder.Type

export const ReviewQueueRequest = Schema.Struct({
  queue: Schema.optionalWith(ReviewQueueKind, { default: () => "all" as const }),
  order: Schema.optionalWith(ReviewQueueOrder, { default: () => "least_agreement" as const }),
  sample_percent: Schema.optional(Schema.NullOr(Schema.Number.pipe(Schema.greaterThan(0), Schema.lessThanOrEqualTo(100)))),
  seed: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(200)))),
  /** Only records this user submitted an answer to ("review Alice's answers"). */
  annotator: Schema.optional(Schema.NullOr(UserId)),
  /** Agreement and disagreement of this question only; every question when absent. */
  question: Schema.optional(Schema.NullOr(Schema.String)),
  /** Narrows the queue to the records this search matches (its text and filters; sort and vector are ignored). */
  query: Schema.optional(Schema.NullOr(SearchRecordsQuery))
}).annotations({ identifier: "ReviewQueueRequest" })
export type ReviewQueueRequest = typeof ReviewQueueRequest.Type

export const ReviewItem = Schema.Struct({
  /** With every user's responses and the suggestions. */
  record: DatasetRecord,
  /** The record's agreement from 0 (none) to 1 (all agree), over its compared questions; null when none has two. */
  agreement: Schema.NullOr(Schema.Number),
  /** The questions whose submitted answers differ. */
  disagreements: Schema.Array(Schema.String),
  final_answers: Schema.Array(FinalAnswer)
}).annotations({ identifier: "ReviewItem" })
export type ReviewItem = typeof ReviewItem.Type

export const ReviewQueuePage = Schema.Struct({
  items: Schema.Array(ReviewItem),
  /** Records in this queue (before paging). */
  total: Schema.Int,
  /** How many records each queue holds, for the queue picker; `sample` is the sample's size. */
  counts: Schema.Struct({
    all: Schema.Int,
    disagreement: Schema.Int,
    unsettled: Schema.Int,
    settled: Schema.Int
  })
}).annotations({ identifier: "ReviewQueuePage" })
export type ReviewQueuePage = typeof ReviewQueuePage.Type

// --- Review rights -----------------------------------------------------------------------------------------------

/** A workspace member who may review (read everyone's answers there, see agreement, settle final answers). */
export const Reviewer = Schema.Struct({
  workspace_id: WorkspaceId,
  user_id: UserId,
  username: Schema.String,
  inserted_at: Timestamp
}).annotations({ identifier: "Reviewer" })
export type Reviewer = typeof Reviewer.Type

export const Reviewers = Schema.Struct({ items: Schema.Array(Reviewer) }).annotations({ identifier: "Reviewers" })
export type Reviewers = typeof Reviewers.Type

export const ReviewerCreate = Schema.Struct({ user_id: UserId }).annotations({ identifier: "ReviewerCreate" })
export type ReviewerCreate = typeof ReviewerCreate.Type

/** `GET /api/gloss/me/review`: where the caller may review (owners: everywhere, shown as `all: true`). */
export const MyReviewRights = Schema.Struct({
  all: Schema.Boolean,
  workspace_ids: Schema.Array(WorkspaceId)
}).annotations({ identifier: "MyReviewRights" })
export type MyReviewRights = typeof MyReviewRights.Type

/** The settings a question's measure depends on, as the agreement module takes them. */
export type AgreementQuestion = {
  readonly name: string
  readonly settings: QuestionSettings
}

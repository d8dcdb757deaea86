/**
 * Exports to a file (a Gloss extension under `/api/gloss`): which formats, what a request asks for, and the failure
 * of a download that came too late. The job's status is the shared `Job`; the file is downloaded once it finished.
 * Every format carries the records' final answers (settled in review, `domain/Review.ts`); the training formats hold
 * only the settled data.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { SearchRecordsQuery } from "./Search.js"

/**
 * - `argilla-disk`: a zip of the folder the Argilla SDK's `Dataset.to_disk` writes (`Dataset.from_disk` reads it),
 *   plus `final_answers.jsonl` beside it;
 * - `jsonl`: one record per line, as the API answers it, with each response's `username` and `final_answers`;
 * - `csv`: one row per record (docs/how-to/move-datasets.md lists the columns), `<question>.final` per question;
 * - `parquet`: the SDK's `to_hub` rows, as the Hub export writes them, with the responses' usernames and
 *   `<question>.final`.
 *
 * The training formats (docs/how-to/export-for-training.md) write only records with final answers:
 * - `training-jsonl`: one line per settled record, `{id, external_id, fields, metadata, final: {question: value}}`;
 * - `conll`: a span question's final spans as IOB tags over the field's text split on whitespace;
 * - `spacy`: a span question's final spans as `{text, spans: [{start, end, label}], meta}` lines (character offsets);
 * - `dpo`: `{prompt, chosen, rejected}` lines from a ranking question's final ranking, or from a label question whose
 *   options name the fields holding the candidates.
 */
export const ExportFormat = Schema.Literal("argilla-disk", "jsonl", "csv", "parquet", "training-jsonl", "conll", "spacy", "dpo")
export type ExportFormat = typeof ExportFormat.Type

/** The formats made from final answers only, and the question types each takes (`null`: `question` is optional). */
export const trainingQuestionTypes = {
  "training-jsonl": null,
  conll: ["span"],
  spacy: ["span"],
  dpo: ["ranking", "label_selection"]
} as const satisfies Partial<Record<ExportFormat, ReadonlyArray<string> | null>>
export type TrainingFormat = keyof typeof trainingQuestionTypes

export const isTrainingFormat = (format: ExportFormat): format is TrainingFormat => format in trainingQuestionTypes

/**
 * `POST /api/gloss/datasets/{id}/exports`: without `query`, every record; with it, those the search matches.
 *
 * A training format's job counts the records it read in `progress.done` and those it did not write (no final answer
 * to use) in `progress.failed`, with one entry in `progress.errors` saying why; the job still finishes.
 */
export const ExportRequest = Schema.Struct({
  format: ExportFormat,
  /** The body of `POST /api/v1/me/datasets/{id}/records/search`, read as that search reads it for the caller. */
  query: Schema.optional(Schema.NullOr(SearchRecordsQuery)),
  /**
   * The question a training format is made from, by name: a span question for `conll` and `spacy`, a ranking or label
   * question for `dpo` (422 when missing or of another type). For `training-jsonl`, optional: with it, the records
   * whose question has a final answer, instead of the settled records. Other formats ignore it.
   */
  question: Schema.optional(Schema.NullOr(Schema.String))
}).annotations({ identifier: "ExportRequest" })
export type ExportRequest = typeof ExportRequest.Type

/** What each format's file is called and served as. */
export const exportFileTypes: Readonly<Record<ExportFormat, { readonly extension: string; readonly contentType: string }>> = {
  "argilla-disk": { extension: "zip", contentType: "application/zip" },
  jsonl: { extension: "jsonl", contentType: "application/x-ndjson" },
  csv: { extension: "csv", contentType: "text/csv; charset=utf-8" },
  parquet: { extension: "parquet", contentType: "application/vnd.apache.parquet" },
  "training-jsonl": { extension: "jsonl", contentType: "application/x-ndjson" },
  conll: { extension: "conll", contentType: "text/plain; charset=utf-8" },
  spacy: { extension: "jsonl", contentType: "application/x-ndjson" },
  dpo: { extension: "jsonl", contentType: "application/x-ndjson" }
}

/** How long a finished export can be downloaded. */
export const EXPORT_LIFETIME_HOURS = 24

/** 410: the export finished, but its file was deleted once its lifetime was over. */
export class ExportExpired extends Schema.TaggedError<ExportExpired>()("ExportExpired", { detail: Schema.String }) {
  static readonly http: Schema.Schema<ExportExpired, { readonly detail: string }> = Schema.transform(
    Schema.Struct({ detail: Schema.String }),
    Schema.instanceOf(ExportExpired),
    {
      strict: true,
      decode: ({ detail }) => new ExportExpired({ detail }),
      encode: (error) => ({ detail: error.detail })
    }
  ).annotations(HttpApiSchema.annotations({ status: 410 }))
}

/**
 * Exports to a file (a Gloss extension under `/api/gloss`): which formats, what a request asks for, and the failure
 * of a download that came too late. The job's status is the shared `Job`; the file is downloaded once it finished.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { SearchRecordsQuery } from "./Search.js"

/**
 * - `argilla-disk`: a zip of the folder the Argilla SDK's `Dataset.to_disk` writes (`Dataset.from_disk` reads it);
 * - `jsonl`: one record per line, as the API answers it, with each response's `username`;
 * - `csv`: one row per record (docs/how-to/move-datasets.md lists the columns);
 * - `parquet`: the SDK's `to_hub` rows, as the Hub export writes them, with the responses' usernames.
 */
export const ExportFormat = Schema.Literal("argilla-disk", "jsonl", "csv", "parquet")
export type ExportFormat = typeof ExportFormat.Type

/** `POST /api/gloss/datasets/{id}/exports`: without `query`, every record; with it, those the search matches. */
export const ExportRequest = Schema.Struct({
  format: ExportFormat,
  /** The body of `POST /api/v1/me/datasets/{id}/records/search`, read as that search reads it for the caller. */
  query: Schema.optional(Schema.NullOr(SearchRecordsQuery))
}).annotations({ identifier: "ExportRequest" })
export type ExportRequest = typeof ExportRequest.Type

/** What each format's file is called and served as. */
export const exportFileTypes: Readonly<Record<ExportFormat, { readonly extension: string; readonly contentType: string }>> = {
  "argilla-disk": { extension: "zip", contentType: "application/zip" },
  jsonl: { extension: "jsonl", contentType: "application/x-ndjson" },
  csv: { extension: "csv", contentType: "text/csv; charset=utf-8" },
  parquet: { extension: "parquet", contentType: "application/vnd.apache.parquet" }
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

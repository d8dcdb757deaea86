import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Forbidden, NotFound, Unprocessable } from "../../domain/Errors.js"
import { ExportExpired, ExportRequest } from "../../domain/Export.js"
import { DatasetId } from "../../domain/Ids.js"
import { Job, JobId } from "../../domain/Job.js"
import { Authentication } from "../Authentication.js"

/** The file's bytes: a download, whatever its format (the response's own content type says which). */
const ExportFile = Schema.Uint8ArrayFromSelf.pipe(
  HttpApiSchema.withEncoding({ kind: "Uint8Array", contentType: "application/octet-stream" })
)

/**
 * Exports to a file, a Gloss extension outside Argilla's paths (`/api/gloss`): a job writes the file into the
 * database, and its starter (or an owner) downloads it for a day.
 */
export class ExportsGroup extends HttpApiGroup.make("exports")
  .add(
    HttpApiEndpoint.post("start", "/datasets/:id/exports").setPath(Schema.Struct({ id: DatasetId }))
      .setPayload(ExportRequest).addSuccess(Job, { status: 202 }).addError(NotFound.http).addError(Unprocessable.http)
      .annotate(
        OpenApi.Description,
        "Export the dataset's records (all, or those a search matches) to a file, as a job: `argilla-disk` (a zip of " +
          "the Argilla SDK's `to_disk` folder), `jsonl`, `csv` or `parquet`. Whoever may list every record may export."
      )
  )
  .add(
    HttpApiEndpoint.get("download", "/exports/:id/file").setPath(Schema.Struct({ id: JobId }))
      .addSuccess(ExportFile).addError(NotFound.http).addError(ExportExpired.http)
      .annotate(
        OpenApi.Description,
        "The finished export's file, as an attachment; 404 until it is done and for others' exports, 410 once it " +
          "expired (a day after it finished)."
      )
  )
  .addError(Forbidden.http)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Exports to a file (Gloss extension)")
{}

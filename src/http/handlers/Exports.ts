import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Layer } from "effect"
import { CurrentUser } from "../../contract/Authentication.js"
import { Exports } from "../../services/exports/Exports.js"
import { ServerApi } from "../ServerApi.js"

/** `filename="…"` for a name that `Exports` already kept to letters, digits, `_`, `.` and `-`. */
const attachment = (fileName: string) => `attachment; filename="${fileName}"`

export const ExportsLive = HttpApiBuilder.group(ServerApi, "exports", (handlers) =>
  Effect.gen(function*() {
    const exports = yield* Exports
    return handlers
      .handle("start", ({ path, payload }) => Effect.flatMap(CurrentUser, (actor) => exports.start(actor, path.id, payload)))
      // The file goes out as it is read from the database, a chunk at a time, never whole.
      .handleRaw("download", ({ path }) =>
        Effect.flatMap(CurrentUser, (actor) => exports.download(actor, path.id)).pipe(
          Effect.map((file) =>
            HttpServerResponse.stream(file.bytes, {
              contentType: file.contentType,
              contentLength: file.size,
              headers: { "content-disposition": attachment(file.fileName), "cache-control": "no-store" }
            })
          )
        ))
  })).pipe(Layer.provide(Exports.Default))

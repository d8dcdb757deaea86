import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Ingest } from "../../services/records/ingest/Ingest.js"
import { bulkJson } from "../BulkJson.js"
import { Records } from "../../services/records/Records.js"
import { Api } from "../Api.js"
import { CurrentUser } from "../Authentication.js"

export const RecordsLive = HttpApiBuilder.group(Api, "records", (handlers) =>
  Effect.gen(function*() {
    const records = yield* Records
    const ingest = yield* Ingest
    return handlers
      .handle("list", ({ path, urlParams }) =>
        Effect.flatMap(CurrentUser, (actor) =>
          records.list(actor, path.id, {
            offset: urlParams.offset ?? 0,
            limit: urlParams.limit ?? 50,
            include: urlParams.include
          })))
      // The bulk writes answer hundreds of records: serialised directly (see BulkJson), same bytes as the schema.
      .handle("bulkCreate", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (actor) => ingest.create(actor, path.id, payload.items)).pipe(
          Effect.map((written) => bulkJson(written, 201))
        ))
      .handle("bulkUpsert", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (actor) => ingest.upsert(actor, path.id, payload.items)).pipe(
          Effect.map((written) => bulkJson(written, 200))
        ))
      .handle("deleteMany", ({ path, urlParams }) =>
        Effect.flatMap(CurrentUser, (actor) => records.deleteMany(actor, path.id, urlParams.ids)).pipe(Effect.asVoid))
      .handle("get", ({ path }) => Effect.flatMap(CurrentUser, (actor) => records.get(actor, path.id)))
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (actor) => records.update(actor, path.id, payload)))
      .handle("delete", ({ path }) => Effect.flatMap(CurrentUser, (actor) => records.delete(actor, path.id)))
  })).pipe(Layer.provide([Records.Default, Ingest.Default]))

import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Ingest } from "../../services/records/ingest/Ingest.js"
import { bulkAnswer, bulkPayload } from "../RecordsWire.js"
import { Records } from "../../services/records/Records.js"
import { ServerApi } from "../ServerApi.js"
import { CurrentUser } from "../../contract/Authentication.js"

export const RecordsLive = HttpApiBuilder.group(ServerApi, "records", (handlers) =>
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
      // The bulk writes take and answer hundreds of records: their bodies are decoded by hand when they have the plain
      // shape of an import (see RecordsWire), and their answers serialised directly (see RecordsWire), both equal to the
      // schemas' own work.
      .handleRaw("bulkCreate", ({ path, request }) =>
        Effect.flatMap(bulkPayload(request, "create"), (payload) =>
          Effect.flatMap(CurrentUser, (actor) => ingest.create(actor, path.id, payload.items))).pipe(
            Effect.map((written) => bulkAnswer(written, 201))
          ))
      .handleRaw("bulkUpsert", ({ path, request }) =>
        Effect.flatMap(bulkPayload(request, "upsert"), (payload) =>
          Effect.flatMap(CurrentUser, (actor) => ingest.upsert(actor, path.id, payload.items))).pipe(
            Effect.map((written) => bulkAnswer(written, 200))
          ))
      .handle("deleteMany", ({ path, urlParams }) =>
        Effect.flatMap(CurrentUser, (actor) => records.deleteMany(actor, path.id, urlParams.ids)).pipe(Effect.asVoid))
      .handle("get", ({ path }) => Effect.flatMap(CurrentUser, (actor) => records.get(actor, path.id)))
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (actor) => records.update(actor, path.id, payload)))
      .handle("delete", ({ path }) => Effect.flatMap(CurrentUser, (actor) => records.delete(actor, path.id)))
  })).pipe(Layer.provide([Records.Default, Ingest.Default]))

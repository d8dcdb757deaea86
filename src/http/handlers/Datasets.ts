import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Datasets } from "../../services/datasets/Datasets.js"
import { HubExport } from "../../services/hub/HubExport.js"
import { HubImport } from "../../services/hub/HubImport.js"
import { ServerApi } from "../ServerApi.js"
import { CurrentUser } from "../../contract/Authentication.js"

export const DatasetsLive = HttpApiBuilder.group(ServerApi, "datasets", (handlers) =>
  Effect.gen(function*() {
    const datasets = yield* Datasets
    const hubExport = yield* HubExport
    const hubImport = yield* HubImport
    return handlers
      .handle("listMine", ({ urlParams }) =>
        Effect.flatMap(CurrentUser, (actor) => datasets.listFor(actor, urlParams)).pipe(
          Effect.map((items) => ({ items }))
        ))
      .handle("create", ({ payload }) => Effect.flatMap(CurrentUser, (actor) => datasets.create(actor, payload)))
      .handle("get", ({ path }) => Effect.flatMap(CurrentUser, (actor) => datasets.get(actor, path.id)))
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (actor) => datasets.update(actor, path.id, payload)))
      .handle("delete", ({ path }) => Effect.flatMap(CurrentUser, (actor) => datasets.delete(actor, path.id)))
      .handle("publish", ({ path }) => Effect.flatMap(CurrentUser, (actor) => datasets.publish(actor, path.id)))
      .handle("exportToHub", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (actor) => hubExport.start(actor, path.id, payload)))
      .handle("importFromHub", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (actor) => hubImport.start(actor, path.id, payload)))
  })).pipe(Layer.provide([Datasets.Default, HubExport.Default, HubImport.Default]))

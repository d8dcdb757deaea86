import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Webhooks } from "../../services/webhooks/Webhooks.js"
import { ServerApi } from "../ServerApi.js"
import { CurrentUser } from "../../contract/Authentication.js"

export const WebhooksLive = HttpApiBuilder.group(ServerApi, "webhooks", (handlers) =>
  Effect.gen(function*() {
    const webhooks = yield* Webhooks
    return handlers
      .handle("list", () => CurrentUser.pipe(Effect.flatMap(webhooks.list), Effect.map((items) => ({ items }))))
      .handle("create", ({ payload }) => Effect.flatMap(CurrentUser, (actor) => webhooks.create(actor, payload)))
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (actor) => webhooks.update(actor, path.id, payload)))
      .handle("delete", ({ path }) => Effect.flatMap(CurrentUser, (actor) => webhooks.delete(actor, path.id)))
      .handle("ping", ({ path }) => Effect.flatMap(CurrentUser, (actor) => webhooks.ping(actor, path.id)))
  })).pipe(Layer.provide(Webhooks.Default))

import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Layer, Schema } from "effect"
import { Readiness } from "../../domain/Health.js"
import { ServerApi } from "../ServerApi.js"
import { Health } from "../../Health.js"

const encode = Schema.encode(Readiness)

export const HealthLive = HttpApiBuilder.group(ServerApi, "health", (handlers) =>
  Effect.gen(function*() {
    const health = yield* Health
    return handlers
      .handle("live", () => Effect.succeed({ status: "ok" as const }))
      .handle("ready", () =>
        health.ready().pipe(
          Effect.flatMap((readiness) =>
            Effect.map(encode(readiness).pipe(Effect.orDie), (body) =>
              HttpServerResponse.unsafeJson(body, { status: readiness.status === "ok" ? 200 : 503 }))
          )
        ))
  })).pipe(Layer.provide(Health.Default))

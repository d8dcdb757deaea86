/** Telemetry sends a topic at most once a minute (a bulk import must not send a request per batch). */
import { HttpClient, HttpClientResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, TestClock } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { RESEND_AFTER_MILLIS, Telemetry } from "../../src/services/Telemetry.js"

const recorder = () => {
  const sent: Array<string> = []
  const client = HttpClient.make((request) =>
    Effect.sync(() => {
      sent.push(new URL(request.url).pathname)
      return HttpClientResponse.fromWeb(request, new Response(null, { status: 200 }))
    })
  )
  const layer = Telemetry.DefaultWithoutDependencies.pipe(
    Layer.provide(Layer.succeed(HttpClient.HttpClient, client)),
    Layer.provide(GlossConfig.fromRecord({ HF_ENDPOINT: "http://hub.test" }))
  )
  return { sent, layer }
}

/** Lets the forked sends run. */
const drain = Effect.flatMap(Effect.forkDaemon(Effect.yieldNow()), Fiber.join).pipe(Effect.repeatN(5))

describe("Telemetry", () => {
  it.effect("sends a topic once, then not again until a minute has passed; other topics are counted apart", () => {
    const { layer, sent } = recorder()
    return Effect.gen(function*() {
      const telemetry = yield* Telemetry
      for (let i = 0; i < 5; i++) yield* telemetry.track("records/bulk")
      yield* telemetry.track("dataset/published")
      yield* drain
      expect(sent).toEqual(["/api/telemetry/gloss/records/bulk", "/api/telemetry/gloss/dataset/published"])

      yield* TestClock.adjust(RESEND_AFTER_MILLIS - 1)
      yield* telemetry.track("records/bulk")
      yield* drain
      expect(sent).toHaveLength(2)

      yield* TestClock.adjust(1)
      yield* telemetry.track("records/bulk")
      yield* drain
      expect(sent).toEqual([
        "/api/telemetry/gloss/records/bulk",
        "/api/telemetry/gloss/dataset/published",
        "/api/telemetry/gloss/records/bulk"
      ])
    }).pipe(Effect.provide(layer))
  })
})

/**
 * `GLOSS_APP_MODULE`: a module whose default export extends the standard server — what Argilla's image does with
 * `UVICORN_APP`. The export is a Layer that registers routes on the API's router or adds API middleware, e.g.
 *
 *   import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
 *   import { Effect } from "effect"
 *   export default HttpApiBuilder.Router.use((router) => router.get("/hello", Effect.succeed(HttpServerResponse.text("hi"))))
 *
 * The path is resolved from the working directory; the module is JavaScript (or TypeScript when run through tsx).
 */
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import type { HttpApiBuilder } from "@effect/platform"
import { Data, Effect, Layer, Option } from "effect"
import { GlossConfig } from "../Config.js"

export class AppModuleError extends Data.TaggedError("AppModuleError")<{ readonly message: string }> {}

type Extension = Layer.Layer<never, unknown, HttpApiBuilder.Router | HttpApiBuilder.Middleware>

const isExtension = (value: unknown): value is Extension => Layer.isLayer(value)

export const AppModuleLive = Layer.unwrapEffect(Effect.gen(function*() {
  const { container } = yield* GlossConfig
  if (Option.isNone(container.appModule)) return Layer.empty
  const specifier = container.appModule.value
  const url = specifier.startsWith(".") || path.isAbsolute(specifier)
    ? pathToFileURL(path.resolve(specifier)).href
    : specifier
  const module = yield* Effect.tryPromise({
    try: (): Promise<{ readonly default?: unknown }> => import(url),
    catch: (cause) =>
      new AppModuleError({ message: `GLOSS_APP_MODULE ${specifier} could not be loaded: ${cause instanceof Error ? cause.message : String(cause)}` })
  })
  if (!isExtension(module.default)) {
    return yield* new AppModuleError({
      message: `GLOSS_APP_MODULE ${specifier} must have a default export that is a Layer (see src/http/AppModule.ts)`
    })
  }
  yield* Effect.logInfo(`Extending the server with GLOSS_APP_MODULE ${specifier}`)
  // A failure while building the user's layer is the user's to read in the start-up message, not an API error.
  return Layer.orDie(module.default)
}))

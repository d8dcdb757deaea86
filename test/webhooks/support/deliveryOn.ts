/**
 * The delivery service on a suite's storage, outside any server: a test runs a delivery job's handler itself, as a
 * worker would, with its own settings (an allow-list that changed since the webhook was created, a resolver that
 * answers what the test says) and its own logger.
 */
import { Cause, Effect, FiberRef, HashSet, Layer, Logger, LogLevel } from "effect"
import { GlossConfig } from "../../../src/Config.js"
import { SqlLive } from "../../../src/services/database/Database.js"
import { JobSettings } from "../../../src/services/jobs/model.js"
import { WebhookDelivery } from "../../../src/services/webhooks/Delivery.js"
import { type Resolve, WebhookResolver } from "../../../src/services/webhooks/Destinations.js"
import { WebhookSettings, type WebhookSettingsShape } from "../../../src/services/webhooks/settings.js"
import { removeAllHooks } from "./hooks.js"
import { serverProcess, Setup, type SetupShape } from "./setup.js"

/** A resolver with fixed answers; any other name does not exist. */
export const fixedResolver = (answers: Readonly<Record<string, ReadonlyArray<string>>>): Resolve => (host) => {
  const addresses = answers[host]
  return addresses === undefined
    ? Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" }))
    : Promise.resolve(addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })))
}

export const deliveryOn = (
  setup: SetupShape,
  env: Record<string, string>,
  options: { readonly resolve?: Resolve; readonly webhooks?: Partial<WebhookSettingsShape> } = {}
) => {
  const { resolve, webhooks } = options
  return WebhookDelivery.Default.pipe(
    Layer.provide(SqlLive),
    Layer.provide(GlossConfig.fromRecord({ ...setup.env, ...env })),
    Layer.provide(Layer.succeed(WebhookSettings, { ...setup.webhooks, ...webhooks })),
    Layer.provide(Layer.succeed(JobSettings, setup.jobs)),
    Layer.provide(resolve === undefined ? Layer.empty : Layer.succeed(WebhookResolver, resolve)),
    Layer.orDie
  )
}

/** A logger that keeps each entry as the line the process's text logger would print, and the level. */
export const captureLogs = () => {
  const lines: Array<{ readonly level: string; readonly text: string }> = []
  const logger = Logger.make(({ cause, logLevel, message }) => {
    const text = [Array.isArray(message) ? message.join(" ") : String(message), Cause.isEmpty(cause) ? "" : Cause.pretty(cause)]
      .filter((part) => part !== "").join("\n")
    lines.push({ level: logLevel.label, text })
  })
  // Only this logger: the lines are the test's to read, not the run's output.
  const layer = Layer.merge(Layer.locallyScoped(FiberRef.currentLoggers, HashSet.make(logger)), Logger.minimumLogLevel(LogLevel.Info))
  return { lines, layer }
}

/** A server of the suite without workers (the test runs deliveries itself), its webhooks removed; runs effects in it. */
export const idleServer = Effect.gen(function*() {
  const context = yield* Layer.build(serverProcess(yield* Setup, { GLOSS_JOB_WORKERS: "0" }))
  const inServer = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, context)
  yield* inServer(removeAllHooks)
  return inServer
})

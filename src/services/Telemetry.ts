/**
 * Anonymous usage events for the Hugging Face Hub, as its libraries send them: a `HEAD` request to
 * `$HF_ENDPOINT/api/telemetry/gloss/<topic>` whose user agent names Gloss, Node and the OS — never a name, an id,
 * a count or anything else about the data. Each topic at most once a minute, sent in the background with a short
 * time limit; a failure is only logged at debug level. Off when `HF_HUB_DISABLE_TELEMETRY` is true or `HF_HUB_OFFLINE=1`.
 */
import * as os from "node:os"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Clock, Effect } from "effect"
import { GlossConfig } from "../Config.js"
import { VERSION } from "../version.js"

/** How long after sending a topic it is sent again. */
export const RESEND_AFTER_MILLIS = 60_000

export type TelemetryTopic = "server/start" | "dataset/published" | "records/bulk"

export class Telemetry extends Effect.Service<Telemetry>()("Gloss/Telemetry", {
  effect: Effect.gen(function*() {
    const { hub } = yield* GlossConfig
    const client = yield* HttpClient.HttpClient
    const userAgent = `gloss/${VERSION}; node/${process.versions.node}; os/${os.platform()}`

    const send = (topic: TelemetryTopic) =>
      client.execute(
        HttpClientRequest.head(`${hub.endpoint}/api/telemetry/gloss/${topic}`).pipe(
          HttpClientRequest.setHeader("user-agent", userAgent)
        )
      ).pipe(
        Effect.scoped,
        Effect.timeout("5 seconds"),
        Effect.tapErrorCause((cause) => Effect.logDebug(`Telemetry event ${topic} not sent`, cause)),
        Effect.exit
      )

    // A topic is sent at most once a minute. An import of 100 000 records is 200 bulk writes: a HEAD (DNS, TLS)
    // for each cost the server measurable time during the import and told the Hub nothing more than the first.
    const lastSent = new Map<TelemetryTopic, number>()

    /** Fires and forgets: the caller never waits for the Hub. */
    const track = (topic: TelemetryTopic): Effect.Effect<void> =>
      hub.telemetryEnabled
        ? Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const last = lastSent.get(topic)
          if (last !== undefined && now - last < RESEND_AFTER_MILLIS) return Effect.void
          lastSent.set(topic, now)
          return Effect.asVoid(Effect.forkDaemon(send(topic)))
        })
        : Effect.void

    return { track } as const
  }),
  dependencies: [FetchHttpClient.layer]
}) {}

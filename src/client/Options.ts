/**
 * The Argilla SDK's constructor parameters as options, and their environment defaults read through `Config` (so
 * that tests swap the environment with a `ConfigProvider`).
 */
import type { HttpClient } from "@effect/platform"
import { Config, Duration, Effect, Option, Redacted } from "effect"
import { InvalidApiUrl, MissingApiKey } from "./Errors.js"

export const DEFAULT_API_URL = "http://localhost:6900"
export const DEFAULT_TIMEOUT_SECONDS = 60
export const DEFAULT_RETRIES = 5
/**
 * The first connection retry waits this long, each next one twice as long: 5 retries wait 7.75 s in all, about what
 * httpx's connection retries wait (0 s, 0.5 s, 1 s, 2 s, 4 s) in the Python SDK.
 */
export const DEFAULT_RETRY_BACKOFF: Duration.DurationInput = "250 millis"

export interface ClientOptions {
  /** Default: `GLOSS_API_URL`, else `http://localhost:6900`. */
  readonly apiUrl?: string | undefined
  /** Sent in `X-Gloss-Api-Key` on every request. Default: `GLOSS_API_KEY`. */
  readonly apiKey?: string | undefined
  /** Seconds a whole request may take, connection retries included; then `RequestTimeout`. Default 60. */
  readonly timeout?: number | undefined
  /** Retries of the connection only (refused, reset before an answer); then `ConnectionFailed`. Default 5. */
  readonly retries?: number | undefined
  /** The first connection retry waits this long, each next one twice as long. Default 250 ms. */
  readonly retryBackoff?: Duration.DurationInput | undefined
  /** Added to every request; the API-key header always wins. */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** Wraps the underlying `HttpClient` (proxies, tracing, recording in tests). */
  readonly transformClient?: ((client: HttpClient.HttpClient) => HttpClient.HttpClient) | undefined
  /** The workspace dataset lookups use before `workspaces.default` (set by `fromCredentials`). */
  readonly workspace?: string | undefined
}

/** The options with every default applied and checked. */
export interface ClientSettings {
  readonly apiUrl: string
  readonly apiKey: Redacted.Redacted<string>
  readonly timeout: Duration.Duration
  readonly timeoutSeconds: number
  readonly retries: number
  readonly retryBackoff: Duration.Duration
  readonly headers: Readonly<Record<string, string>>
  readonly transformClient: (client: HttpClient.HttpClient) => HttpClient.HttpClient
  readonly workspace: Option.Option<string>
}

/** The SDK's cleaning of environment values: line breaks removed, trimmed, empty means unset. */
const cleaned = (value: string): Option.Option<string> => {
  const text = value.replace(/[\r\n]/g, "").trim()
  return text === "" ? Option.none() : Option.some(text)
}

/** An environment variable as an optional, cleaned string. */
export const envString = (name: string): Effect.Effect<Option.Option<string>> =>
  Config.option(Config.string(name)).pipe(
    Effect.map(Option.flatMap(cleaned)),
    // A string variable cannot be malformed: the only failure left would be a broken ConfigProvider.
    Effect.orDie
  )

const argument = (value: string | undefined) => Option.flatMap(Option.fromNullable(value), cleaned)

/** Trailing slashes would double up with the API's `/api/v1/...` paths. */
const normaliseUrl = (apiUrl: string): Option.Option<string> => {
  try {
    const url = new URL(apiUrl)
    return url.protocol === "http:" || url.protocol === "https:" ? Option.some(apiUrl.replace(/\/+$/, "")) : Option.none()
  } catch {
    return Option.none()
  }
}

export const resolveSettings = Effect.fn("GlossClient.resolveSettings")(function*(options: ClientOptions) {
  const givenUrl = argument(options.apiUrl)
  const apiUrl = Option.isSome(givenUrl)
    ? givenUrl.value
    : Option.getOrElse(yield* envString("GLOSS_API_URL"), () => DEFAULT_API_URL)
  const url = yield* Option.match(normaliseUrl(apiUrl), {
    onNone: () => Effect.fail(new InvalidApiUrl({ apiUrl })),
    onSome: Effect.succeed
  })
  const givenKey = argument(options.apiKey)
  const apiKey = Option.isSome(givenKey) ? givenKey : yield* envString("GLOSS_API_KEY")
  if (Option.isNone(apiKey)) return yield* new MissingApiKey()
  const timeoutSeconds = options.timeout ?? DEFAULT_TIMEOUT_SECONDS
  const settings: ClientSettings = {
    apiUrl: url,
    apiKey: Redacted.make(apiKey.value),
    timeout: Duration.millis(Math.round(timeoutSeconds * 1000)),
    timeoutSeconds,
    retries: Math.max(0, Math.floor(options.retries ?? DEFAULT_RETRIES)),
    retryBackoff: Duration.decode(options.retryBackoff ?? DEFAULT_RETRY_BACKOFF),
    headers: options.headers ?? {},
    transformClient: options.transformClient ?? ((client) => client),
    workspace: argument(options.workspace)
  }
  return settings
})

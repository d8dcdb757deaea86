/**
 * Verifying a webhook delivery, for receivers, as the Argilla SDK verifies it: the Standard Webhooks signature
 * (HMAC-SHA256 over `id.timestamp.body`, ±5 minutes) checked by the `standardwebhooks` package with the webhook's
 * secret — the plain base64 string the server returns — then the body decoded as the delivery envelope.
 */
import { Effect, Either, ParseResult, Schema } from "effect"
import { Webhook as StandardWebhook } from "standardwebhooks"
import { WebhookEnvelope } from "../domain/Event.js"
import { WebhookVerificationFailed } from "./Errors.js"

/** Node's `IncomingHttpHeaders`, a Fetch `Headers`, or a plain record; names are matched case-insensitively. */
export type WebhookHeaders =
  | Headers
  | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

export interface WebhookDelivery {
  /** The webhook's `secret`, as the server returned it. */
  readonly secret: string
  /** The raw body, exactly as received: re-serialised JSON would not match the signature. */
  readonly payload: string | Uint8Array
  readonly headers: WebhookHeaders
}

const plainHeaders = (headers: WebhookHeaders): Record<string, string> => {
  const entries: Array<[string, string]> = []
  if (headers instanceof Headers) {
    headers.forEach((value, name) => entries.push([name, value]))
  } else {
    for (const [name, value] of Object.entries(headers)) {
      if (typeof value === "string") entries.push([name.toLowerCase(), value])
      else if (value !== undefined) entries.push([name.toLowerCase(), value.join(" ")])
    }
  }
  return Object.fromEntries(entries)
}

const decodeEnvelope = Schema.decodeUnknownEither(WebhookEnvelope)

/** The delivery's envelope (`type`, `version`, `timestamp`, `data`), or why it cannot be trusted. */
export const verifyWebhookEither = (delivery: WebhookDelivery): Either.Either<WebhookEnvelope, WebhookVerificationFailed> => {
  const body = typeof delivery.payload === "string" ? delivery.payload : Buffer.from(delivery.payload).toString("utf8")
  let parsed: unknown
  try {
    parsed = new StandardWebhook(delivery.secret).verify(body, plainHeaders(delivery.headers))
  } catch (error) {
    return Either.left(new WebhookVerificationFailed({ reason: error instanceof Error ? error.message : String(error) }))
  }
  return Either.mapLeft(decodeEnvelope(parsed), (error) =>
    new WebhookVerificationFailed({
      reason: `the body is not a webhook event: ${ParseResult.TreeFormatter.formatErrorSync(error)}`
    }))
}

/** Effect form: fails with `WebhookVerificationFailed`. */
export const verifyWebhook = (delivery: WebhookDelivery): Effect.Effect<WebhookEnvelope, WebhookVerificationFailed> =>
  Effect.suspend(() => verifyWebhookEither(delivery)).pipe(Effect.withSpan("GlossClient.verifyWebhook"))

/** Plain form, for receivers without Effect: returns the envelope or throws `WebhookVerificationFailed`. */
export const verifyWebhookSync = (delivery: WebhookDelivery): WebhookEnvelope =>
  Either.getOrThrowWith(verifyWebhookEither(delivery), (error) => error)

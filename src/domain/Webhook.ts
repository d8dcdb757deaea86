/** Webhooks: where Gloss posts signed events, and which events each one wants. */
import { ParseResult, Schema } from "effect"
import { FreeText } from "./Common.js"
import { WebhookId } from "./Ids.js"
import { Timestamp } from "./Timestamp.js"

/**
 * The events a webhook may subscribe to, Argilla's eleven. `ping` is sent on request only and cannot be subscribed to.
 */
export const WebhookEventType = Schema.Literal(
  "dataset.created",
  "dataset.updated",
  "dataset.deleted",
  "dataset.published",
  "record.created",
  "record.updated",
  "record.deleted",
  "record.completed",
  "response.created",
  "response.updated",
  "response.deleted"
).annotations({
  identifier: "WebhookEventType",
  message: () => ({
    message: "must be one of: dataset.created, dataset.updated, dataset.deleted, dataset.published, record.created, " +
      "record.updated, record.deleted, record.completed, response.created, response.updated, response.deleted",
    override: true
  })
})
export type WebhookEventType = typeof WebhookEventType.Type

/**
 * An absolute http(s) URL, stored normalised as the WHATWG parser writes it (lower-case scheme and host, default
 * port dropped, `/` for an empty path), which is what Argilla's pydantic `HttpUrl` produces for the usual cases.
 */
export const WebhookUrl = Schema.transformOrFail(
  Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2083)),
  Schema.String,
  {
    strict: true,
    decode: (raw, _, ast) => {
      const url = URL.canParse(raw) ? new URL(raw) : undefined
      return url !== undefined && (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== ""
        ? ParseResult.succeed(url.href)
        : ParseResult.fail(new ParseResult.Type(ast, raw, "URL scheme should be 'http' or 'https' and the URL valid"))
    },
    encode: ParseResult.succeed
  }
).annotations({ identifier: "WebhookUrl", description: "An absolute http or https URL" })

/** At least one event, each at most once. */
const Events = Schema.Array(WebhookEventType).pipe(
  Schema.minItems(1),
  Schema.filter((events) => new Set(events).size === events.length || "the events must be unique")
)

const Description = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(1000), FreeText)

/** A webhook as the API shows it; the secret is part of every read (Argilla's SDK relies on that). */
export const Webhook = Schema.Struct({
  id: WebhookId,
  url: Schema.String,
  /** Base64 of 64 random bytes: the HMAC key of the Standard Webhooks signature, usable by any verifier as is. */
  secret: Schema.String,
  events: Schema.Array(WebhookEventType),
  enabled: Schema.Boolean,
  description: Schema.NullOr(Schema.String),
  inserted_at: Timestamp,
  updated_at: Timestamp,
  /**
   * Gloss extensions (Argilla's SDK ignores keys it does not know): how the receiver is doing. Failed deliveries
   * in a row (counted once per back-off window; a success resets it), the latest failure, and why Gloss disabled
   * the webhook, if it did (`enabled` stays the switch: `PATCH {"enabled": true}` turns it back on).
   */
  consecutive_failures: Schema.Number,
  last_failure_at: Schema.NullOr(Timestamp),
  last_error: Schema.NullOr(Schema.String),
  disabled_reason: Schema.NullOr(Schema.String)
}).annotations({ identifier: "Webhook" })
export type Webhook = typeof Webhook.Type

export const WebhookCreate = Schema.Struct({
  url: WebhookUrl,
  events: Events,
  description: Schema.optional(Schema.NullOr(Description))
}).annotations({ identifier: "WebhookCreate" })
export type WebhookCreate = typeof WebhookCreate.Type

/** Partial. The SDK sends its whole model (id, secret, timestamps…); keys that cannot change are ignored. */
export const WebhookUpdate = Schema.Struct({
  url: Schema.optional(WebhookUrl),
  events: Schema.optional(Events),
  enabled: Schema.optional(Schema.Boolean),
  description: Schema.optional(Schema.NullOr(Description))
}).annotations({ identifier: "WebhookUpdate" })
export type WebhookUpdate = typeof WebhookUpdate.Type

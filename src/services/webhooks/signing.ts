/** The Standard Webhooks side of a delivery: secrets, message ids, the envelope, the headers. */
import * as crypto from "node:crypto"
import { Webhook as Signer } from "standardwebhooks"

/** Base64 of 64 random bytes, without `whsec_`: any Standard Webhooks verifier takes it as is. */
export const newSecret = (): string => crypto.randomBytes(64).toString("base64")

/**
 * The `webhook-id` of one event delivered to one webhook: derived from both, so every attempt and every
 * re-dispatch after a crash carries the same id and receivers can drop duplicates. It has the form Argilla's
 * random ids have (`msg_` + 16 bytes, URL-safe base64).
 */
export const messageIdFor = (eventId: string, webhookId: string): string =>
  "msg_" + crypto.createHash("sha256").update(`${eventId}:${webhookId}`).digest().subarray(0, 16).toString("base64url")

/** For pings, which are not events and are sent once. */
export const randomMessageId = (): string => "msg_" + crypto.randomBytes(16).toString("base64url")

/** `2024-09-02T11:41:57.561000Z`: Python's `%Y-%m-%dT%H:%M:%S.%fZ`, which Argilla uses (microseconds). */
export const eventTimestamp = (at: Date): string => `${at.toISOString().slice(0, 23)}000Z`

/**
 * The body of a delivery. `data` arrives as the JSON text stored in the outbox and is spliced in unparsed: the
 * bytes signed are the bytes sent, and a large record event is not decoded and re-encoded per attempt.
 */
export const envelope = (type: string, occurredAt: Date, data: string): string =>
  `{"type":${JSON.stringify(type)},"version":1,"timestamp":${JSON.stringify(eventTimestamp(occurredAt))},"data":${data}}`

/** The request headers of one attempt, signed at `sentAt` (the signature covers id, timestamp and body). */
export const signedHeaders = (secret: string, messageId: string, body: string, sentAt: Date): Record<string, string> => ({
  "content-type": "application/json",
  "webhook-id": messageId,
  "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
  "webhook-signature": new Signer(secret).sign(messageId, sentAt, body)
})

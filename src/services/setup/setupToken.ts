/**
 * The set-up token: what lets a browser that is not on the server's machine create the first owner. It is derived
 * (HMAC-SHA256 of a fixed label) from `GLOSS_AUTH_SECRET_KEY`, or without it from the key generated once into the
 * home (`secrets/apiKeys.ts`), so every replica and every restart shows the same token until set-up is done, and
 * the database holds nothing to steal.
 */
import * as crypto from "node:crypto"
import { Effect, Option, Redacted } from "effect"
import type { GlossConfigShape } from "../../Config.js"
import { apiKeySealingKey } from "../secrets/apiKeys.js"

const LABEL = "gloss first-owner set-up token"

/** 32 URL-safe characters (192 bits). */
const TOKEN_LENGTH = 32

export const setupToken = (config: Pick<GlossConfigShape, "auth" | "home">): Effect.Effect<string> =>
  Effect.map(
    Option.match(config.auth.secretKey, {
      onSome: (secret) => Effect.succeed(Buffer.from(Redacted.value(secret), "utf8")),
      onNone: () => apiKeySealingKey(config)
    }),
    (key) => crypto.createHmac("sha256", key).update(LABEL, "utf8").digest("base64url").slice(0, TOKEN_LENGTH)
  )

/** Compared in constant time, so that response times do not spell the token out. */
export const sameToken = (sent: string, expected: string): boolean => {
  const a = crypto.createHash("sha256").update(sent, "utf8").digest()
  const b = crypto.createHash("sha256").update(expected, "utf8").digest()
  return crypto.timingSafeEqual(a, b)
}

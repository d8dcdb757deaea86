/**
 * Secrets a job's payload must carry (the Hub token of an export): sealed with AES-256-GCM before the payload is
 * stored (the jobs table or Redis keep payloads after the job ends), opened by the worker that runs it. The key is
 * derived from `GLOSS_AUTH_SECRET_KEY`, which every process of a deployment shares already (sign-in tokens need it);
 * without it each process draws its own, so a job queued before a restart, or by another process, cannot be opened
 * and fails saying so.
 */
import * as crypto from "node:crypto"
import { Data, Effect, Option, Redacted } from "effect"
import { GlossConfig } from "../../Config.js"

export class UnsealFailed extends Data.TaggedError("UnsealFailed")<{ readonly message: string }> {}

const VERSION = "v1"

export class JobSecrets extends Effect.Service<JobSecrets>()("Gloss/JobSecrets", {
  effect: Effect.gen(function*() {
    const { auth } = yield* GlossConfig
    const key = Option.match(auth.secretKey, {
      onNone: () => crypto.randomBytes(32),
      onSome: (secret) => crypto.createHash("sha256").update("gloss job secrets\0").update(Redacted.value(secret)).digest()
    })

    /** `v1.<iv>.<tag>.<ciphertext>`, base64url. */
    const seal = (secret: string): string => {
      const iv = crypto.randomBytes(12)
      const cipher = crypto.createCipheriv("aes-256-gcm", key, iv)
      const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()])
      return [VERSION, iv, cipher.getAuthTag(), sealed].map((part) => typeof part === "string" ? part : part.toString("base64url"))
        .join(".")
    }

    const open = (sealed: string): Effect.Effect<string, UnsealFailed> =>
      Effect.try({
        try: () => {
          const [version, iv, tag, data] = sealed.split(".")
          if (version !== VERSION || iv === undefined || tag === undefined || data === undefined) throw new Error("malformed")
          const decipher = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"))
          decipher.setAuthTag(Buffer.from(tag, "base64url"))
          return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8")
        },
        catch: () =>
          new UnsealFailed({
            message: "its token cannot be read here: it was sealed by a process with another GLOSS_AUTH_SECRET_KEY " +
              "(or none set, and the server restarted); give every process the same key and start it again"
          })
      })

    return { seal, open } as const
  })
}) {}

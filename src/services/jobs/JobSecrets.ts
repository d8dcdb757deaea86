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
import { deriveKey, open as openWith, seal as sealWith } from "../secrets/sealing.js"

export class UnsealFailed extends Data.TaggedError("UnsealFailed")<{ readonly message: string }> {}

export class JobSecrets extends Effect.Service<JobSecrets>()("Gloss/JobSecrets", {
  effect: Effect.gen(function*() {
    const { auth } = yield* GlossConfig
    const key = Option.match(auth.secretKey, {
      onNone: () => crypto.randomBytes(32),
      onSome: (secret) => deriveKey(Redacted.value(secret), "job secrets")
    })

    const seal = (secret: string): string => sealWith(key, secret)

    const open = (sealed: string): Effect.Effect<string, UnsealFailed> =>
      Option.match(openWith(key, sealed), {
        onSome: Effect.succeed,
        onNone: () =>
          Effect.fail(
            new UnsealFailed({
              message: "its token cannot be read here: it was sealed by a process with another GLOSS_AUTH_SECRET_KEY " +
                "(or none set, and the server restarted); give every process the same key and start it again"
            })
          )
      })

    return { seal, open } as const
  })
}) {}

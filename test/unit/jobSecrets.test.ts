/** Job secrets (the Hub export's token): sealed so the stored payload does not show them, opened with the same key only. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { JobSecrets } from "../../src/services/jobs/JobSecrets.js"

/** A process's secrets, configured with `key` (or none): each call is a new process. */
const withKey = (key: string | undefined) =>
  Effect.provide(
    JobSecrets,
    JobSecrets.Default.pipe(Layer.provide(GlossConfig.fromRecord(key === undefined ? {} : { GLOSS_AUTH_SECRET_KEY: key })))
  )

describe("JobSecrets", () => {
  it.effect("round-trips; the sealed form shows nothing of the secret and differs every time", () =>
    Effect.gen(function*() {
      const secrets = yield* withKey("a-key")
      const sealed = secrets.seal("hf_secret_token")
      expect(sealed).not.toContain("hf_secret_token")
      expect(sealed).toMatch(/^v1\./)
      expect(secrets.seal("hf_secret_token")).not.toBe(sealed)
      expect(yield* secrets.open(sealed)).toBe("hf_secret_token")
      // Another process with the same key opens it too.
      expect(yield* (yield* withKey("a-key")).open(sealed)).toBe("hf_secret_token")
    }))

  it.effect("another key, no key (a random one), a tampered or malformed value: UnsealFailed naming the key", () =>
    Effect.gen(function*() {
      const sealed = (yield* withKey("a-key")).seal("hf_secret_token")
      const tampered = sealed.slice(0, -2) + (sealed.endsWith("AA") ? "BB" : "AA")
      for (const [secrets, value] of [
        [yield* withKey("another-key"), sealed],
        [yield* withKey(undefined), sealed],
        [yield* withKey("a-key"), tampered],
        [yield* withKey("a-key"), "hf_plain_token"]
      ] as const) {
        const result = yield* Effect.either(secrets.open(value))
        expect(Either.isLeft(result)).toBe(true)
        if (Either.isLeft(result)) expect(result.left.message).toContain("GLOSS_AUTH_SECRET_KEY")
      }
    }))
})

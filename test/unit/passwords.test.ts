/**
 * Password hashes at the configured bcrypt cost (GLOSS_AUTH_PASSWORD_HASH_ROUNDS): new hashes carry it, every stored
 * hash verifies whatever its own cost (Argilla stores cost 12), and a cost bcrypt cannot use is refused at start.
 */
import bcrypt from "bcryptjs"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { configErrorLines } from "../../src/config/errors.js"
import { Passwords } from "../../src/services/users/Passwords.js"

const withRounds = (env: Record<string, string>) =>
  Passwords.Default.pipe(Layer.provide(GlossConfig.fromRecord(env)))

const load = (env: Record<string, string>) =>
  GlossConfig.load.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))

describe("Passwords", () => {
  it.effect("hashes at cost 10 by default, and verifies only the right password", () =>
    Effect.gen(function*() {
      const passwords = yield* Passwords
      const hash = yield* passwords.hash("correct horse")
      expect(hash).toMatch(/^\$2b\$10\$/)
      expect(yield* passwords.verify("correct horse", hash)).toBe(true)
      expect(yield* passwords.verify("wrong horse", hash)).toBe(false)
    }).pipe(Effect.provide(withRounds({}))))

  it.effect("hashes at the configured cost; hashes of any other cost still verify", () =>
    Effect.gen(function*() {
      const passwords = yield* Passwords
      const hash = yield* passwords.hash("correct horse")
      expect(hash).toMatch(/^\$2b\$04\$/)
      // One made at the default before the setting changed, and one as Argilla stores it.
      expect(yield* passwords.verify("correct horse", bcrypt.hashSync("correct horse", 10))).toBe(true)
      expect(yield* passwords.verify("argilla-pass", bcrypt.hashSync("argilla-pass", 12))).toBe(true)
      expect(yield* passwords.verify("argilla-pass", bcrypt.hashSync("other", 12))).toBe(false)
    }).pipe(Effect.provide(withRounds({ GLOSS_AUTH_PASSWORD_HASH_ROUNDS: "4" }))))

  it.effect("an unknown user (no hash) never verifies, even with the dummy's own password", () =>
    Effect.gen(function*() {
      const passwords = yield* Passwords
      expect(yield* passwords.verify("no such user", undefined)).toBe(false)
      expect(yield* passwords.verify("anything", undefined)).toBe(false)
    }).pipe(Effect.provide(withRounds({ GLOSS_AUTH_PASSWORD_HASH_ROUNDS: "4" }))))

  it.effect("a cost bcrypt cannot use is refused with what the setting accepts", () =>
    Effect.gen(function*() {
      for (const value of ["3", "16", "ten"]) {
        const error = yield* Effect.flip(load({ GLOSS_AUTH_PASSWORD_HASH_ROUNDS: value }))
        expect(configErrorLines(error)).toEqual([
          `GLOSS_AUTH_PASSWORD_HASH_ROUNDS: expected an integer from 4 to 15, got "${value}"`
        ])
      }
    }))
})

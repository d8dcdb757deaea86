/** The sealed copies of API keys (users/ApiKeys.ts): where the key comes from without a secret, and a foreign seal. */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, Option } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { ApiKeySeal, SEALING_KEY_FILE } from "../../src/services/users/ApiKeys.js"

const sealWith = (env: Record<string, string>) =>
  Effect.provide(ApiKeySeal, ApiKeySeal.Default.pipe(Layer.provide(GlossConfig.fromRecord(env))))

describe("ApiKeySeal", () => {
  it.effect("without GLOSS_AUTH_SECRET_KEY the key is generated once into GLOSS_HOME_PATH (0600) and shared", () =>
    Effect.gen(function*() {
      const home = fs.mkdtempSync(path.join(os.tmpdir(), "gloss-seal-"))
      try {
        const first = yield* sealWith({ GLOSS_HOME_PATH: home })
        const sealed = first.seal("a-key")
        const file = path.join(home, SEALING_KEY_FILE)
        expect(fs.statSync(file).mode & 0o777).toBe(0o600)
        expect(fs.readFileSync(file, "utf8")).not.toContain("a-key")
        const again = yield* sealWith({ GLOSS_HOME_PATH: home })
        expect(yield* again.openOwn(sealed)).toEqual(Option.some("a-key"))
      } finally {
        fs.rmSync(home, { recursive: true, force: true })
      }
    }))

  it.effect("a copy sealed under another secret opens to nothing, with one warning however often it is asked", () =>
    Effect.gen(function*() {
      const sealed = (yield* sealWith({ GLOSS_AUTH_SECRET_KEY: "one-secret" })).seal("a-key")
      const other = yield* sealWith({ GLOSS_AUTH_SECRET_KEY: "another-secret" })
      const warnings: Array<unknown> = []
      const capture = Logger.make(({ logLevel, message }) => {
        if (logLevel._tag === "Warning") warnings.push(message)
      })
      const opened = yield* Effect.all([other.openOwn(sealed), other.openOwn(sealed), other.openOwn(null)]).pipe(
        Effect.provide(Logger.add(capture))
      )
      expect(opened).toEqual([Option.none(), Option.none(), Option.none()])
      expect(warnings.length).toBe(1)
      expect(String(warnings[0])).toContain("GLOSS_AUTH_SECRET_KEY")
    }))
})

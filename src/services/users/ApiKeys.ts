/**
 * API keys at rest. The database keeps, for each user, the SHA-256 digest of their key (what a request's key is
 * looked up by: keys are 384 random bits, so a digest cannot be reversed, and no slow hash is needed) and a copy
 * sealed with AES-256-GCM, so that the user alone can be shown their key again (`GET /me`). Neither gives a key
 * away to whoever reads a backup or a leaked replica without the sealing key. That key is derived from
 * `GLOSS_AUTH_SECRET_KEY`; without it, one is generated once into `api-key-seal.key` under `GLOSS_HOME_PATH`.
 */
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect, Option, Redacted } from "effect"
import { GlossConfig, type GlossConfigShape } from "../../Config.js"
import { deriveKey, open, seal } from "../sealing.js"

export const SEALING_KEY_FILE = "api-key-seal.key"

/** What a key is found by: hex SHA-256. */
export const apiKeyDigest = (apiKey: string): string => crypto.createHash("sha256").update(apiKey, "utf8").digest("hex")

/**
 * The file's key, created when missing. Written to a temporary file and hard-linked into place, so that processes
 * starting together agree on one key and none reads a half-written file.
 */
const keyFile = (home: string): Buffer => {
  const file = path.join(home, SEALING_KEY_FILE)
  const read = () => Buffer.from(fs.readFileSync(file, "utf8").trim(), "hex")
  if (fs.existsSync(file)) return read()
  fs.mkdirSync(home, { recursive: true })
  const temporary = `${file}.${process.pid}.${crypto.randomBytes(6).toString("hex")}`
  fs.writeFileSync(temporary, crypto.randomBytes(32).toString("hex") + "\n", { mode: 0o600 })
  try {
    fs.linkSync(temporary, file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
  } finally {
    fs.rmSync(temporary, { force: true })
  }
  return read()
}

/** The key API keys are sealed with under this configuration. */
export const apiKeySealingKey = (config: Pick<GlossConfigShape, "auth" | "home">): Effect.Effect<Buffer> =>
  Option.match(config.auth.secretKey, {
    onSome: (secret) => Effect.succeed(deriveKey(Redacted.value(secret), "api keys")),
    onNone: () => Effect.sync(() => keyFile(config.home))
  })

export class ApiKeySeal extends Effect.Service<ApiKeySeal>()("Gloss/ApiKeySeal", {
  effect: Effect.gen(function*() {
    const key = yield* apiKeySealingKey(yield* GlossConfig)
    let warned = false

    /**
     * The user's own key, opened from its sealed copy; `None` when it was sealed under another key (the secret
     * changed), said once per process: the key itself still works, only showing it again is impossible.
     */
    const openOwn = (sealed: string | null): Effect.Effect<Option.Option<string>> =>
      Effect.suspend(() => {
        if (sealed === null) return Effect.succeedNone
        const opened = open(key, sealed)
        if (Option.isSome(opened) || warned) return Effect.succeed(opened)
        warned = true
        return Effect.as(
          Effect.logWarning(
            "An API key's sealed copy cannot be opened with this GLOSS_AUTH_SECRET_KEY (it was sealed under another " +
              "one, or under another api-key-seal.key file): GET /me leaves out `api_key` for such users. Their keys " +
              "still work; give every process the secret the copies were sealed with to show them again."
          ),
          opened
        )
      })

    return { seal: (apiKey: string) => seal(key, apiKey), openOwn } as const
  })
}) {}

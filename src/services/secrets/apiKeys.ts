/**
 * API keys at rest, the primitives: the database keeps, for each user, the SHA-256 digest of their key (what a
 * request's key is looked up by: keys are 384 random bits, so a digest cannot be reversed, and no slow hash is needed)
 * and a copy sealed with AES-256-GCM (`sealing.ts`). The sealing key is derived from `GLOSS_AUTH_SECRET_KEY`; without
 * it, one is generated once into `api-key-seal.key` under `GLOSS_HOME_PATH`. Here, not in `users/`, because the
 * migration that converts clear keys in place needs them too, and the database folder imports no feature.
 */
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect, Option, Redacted } from "effect"
import type { GlossConfigShape } from "../../Config.js"
import { deriveKey } from "./sealing.js"

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


/**
 * Secrets the database keeps but must not show in clear (a job's Hub token, a copy of each user's API key): sealed
 * with AES-256-GCM, so a copy read from a backup or a leaked replica is useless without the key, and a tampered one
 * fails to open instead of yielding garbage. The form is `v1.<iv>.<tag>.<ciphertext>` (base64url parts).
 */
import * as crypto from "node:crypto"
import { Option } from "effect"

const VERSION = "v1"

/** A 256-bit key for one `purpose` from a shared secret: the same secret never serves two purposes with one key. */
export const deriveKey = (secret: string, purpose: string): Buffer =>
  crypto.createHash("sha256").update(`gloss ${purpose}\0`).update(secret).digest()

export const seal = (key: Buffer, secret: string): string => {
  const iv = crypto.randomBytes(12)
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv)
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()])
  return [VERSION, ...[iv, cipher.getAuthTag(), sealed].map((part) => part.toString("base64url"))].join(".")
}

/** `None` when `sealed` is malformed or was sealed under another key. */
export const open = (key: Buffer, sealed: string): Option.Option<string> => {
  const [version, iv, tag, data, ...rest] = sealed.split(".")
  if (version !== VERSION || iv === undefined || tag === undefined || data === undefined || rest.length > 0) {
    return Option.none()
  }
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"))
    decipher.setAuthTag(Buffer.from(tag, "base64url"))
    return Option.some(Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8"))
  } catch {
    return Option.none()
  }
}

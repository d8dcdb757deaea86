/** Random URL-safe API keys. Password hashes are Passwords.ts's. */
import * as crypto from "node:crypto"

/** 48 random bytes, URL-safe base64 (64 characters). */
export const generateApiKey = (): string => crypto.randomBytes(48).toString("base64url")

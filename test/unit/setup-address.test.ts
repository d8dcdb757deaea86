/**
 * The pure parts of the first-start set-up: which client addresses count as the server's own machine (no set-up
 * token needed from there), the link the log shows, and the token's derivation from the auth secret.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { FIRST_OWNER_HINT, firstOwnerHint, setupUrl } from "../../src/Bootstrap.js"
import { isLoopback } from "../../src/services/setup/loopback.js"
import { sameToken, setupToken } from "../../src/services/setup/setupToken.js"

const server = (host: string, baseUrl = "", port = 6900) => ({ server: { host, port, baseUrl } as never, space: Option.none() })

describe("the set-up's loopback exemption", () => {
  it("loopback: 127.0.0.0/8, ::1, and IPv4-mapped loopback", () => {
    for (const address of ["127.0.0.1", "127.4.5.6", "::1", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:1"]) {
      expect(isLoopback(Option.some(address))).toBe(true)
    }
  })

  it("not loopback: other addresses, look-alikes, and no address at all", () => {
    for (const address of ["10.0.0.1", "203.0.113.9", "::ffff:10.0.0.1", "fe80::1", "127.0.0.1.example", "1127.0.0.1", "::2", ""]) {
      expect(isLoopback(Option.some(address))).toBe(false)
    }
    expect(isLoopback(Option.none())).toBe(false)
  })
})

describe("the set-up link in the log", () => {
  it("a server on every interface is reached at localhost; a named host as it is; IPv6 in brackets; under the base URL", () => {
    expect(setupUrl(server("0.0.0.0"), "T")).toBe("http://localhost:6900/setup?token=T")
    expect(setupUrl(server("::"), "T")).toBe("http://localhost:6900/setup?token=T")
    expect(setupUrl(server("gloss.internal", "/gloss", 8080), "T")).toBe("http://gloss.internal:8080/gloss/setup?token=T")
    expect(setupUrl(server("::1"), "T")).toBe("http://[::1]:6900/setup?token=T")
  })

  it("on a Hugging Face Space, the Space's public address", () => {
    const config = { ...server("0.0.0.0"), space: Option.some({ host: Option.some("me-gloss.hf.space") } as never) }
    expect(setupUrl(config, "T")).toBe("https://me-gloss.hf.space/setup?token=T")
  })

  it("the line starts with the hint and names the variables", () => {
    const line = firstOwnerHint("http://localhost:6900/setup?token=T")
    expect(line.startsWith(FIRST_OWNER_HINT)).toBe(true)
    expect(line).toBe(
      "No owner exists yet. Open http://localhost:6900/setup?token=T to create one (or start with USERNAME and PASSWORD set)."
    )
  })
})

describe("the set-up token", () => {
  const withSecret = (secret: string) => ({ auth: { secretKey: Option.some(Redacted.make(secret)) } as never, home: "/nonexistent" })

  it.effect("32 URL-safe characters, the same for the same secret, another for another secret", () =>
    Effect.gen(function*() {
      const a = yield* setupToken(withSecret("secret-one-with-enough-entropy"))
      expect(a).toMatch(/^[A-Za-z0-9_-]{32}$/)
      expect(yield* setupToken(withSecret("secret-one-with-enough-entropy"))).toBe(a)
      expect(yield* setupToken(withSecret("secret-two-with-enough-entropy"))).not.toBe(a)
    }))

  it("compares whole tokens only", () => {
    expect(sameToken("abc", "abc")).toBe(true)
    expect(sameToken("ab", "abc")).toBe(false)
    expect(sameToken("", "abc")).toBe(false)
  })
})

/** Which destinations are internal, and how the allow-list (`GLOSS_WEBHOOKS_ALLOWED_HOSTS`) reads and matches. */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import {
  hostAllowed,
  internalKind,
  isLocalhostName,
  parseAddress,
  parseAllowedHosts,
  refusal
} from "../../src/services/webhooks/addresses.js"

const kind = (address: string) => internalKind(parseAddress(address)!)
const allow = (raw: string) => Either.getOrThrow(parseAllowedHosts(raw))

describe("internal addresses", () => {
  it("are named by their range", () => {
    expect(kind("127.0.0.1")).toBe("loopback")
    expect(kind("127.255.0.9")).toBe("loopback")
    expect(kind("::1")).toBe("loopback")
    expect(kind("10.1.2.3")).toBe("private")
    expect(kind("172.16.0.1")).toBe("private")
    expect(kind("172.31.255.255")).toBe("private")
    expect(kind("192.168.1.1")).toBe("private")
    expect(kind("fd12:3456::1")).toBe("private (unique local)")
    expect(kind("169.254.169.254")).toBe("cloud metadata")
    expect(kind("fd00:ec2::254")).toBe("cloud metadata")
    expect(kind("169.254.1.1")).toBe("link-local")
    expect(kind("fe80::1")).toBe("link-local")
    expect(kind("0.0.0.0")).toBe("unspecified")
    expect(kind("::")).toBe("unspecified")
    expect(kind("100.64.0.1")).toBe("shared (CGNAT)")
    expect(kind("224.0.0.1")).toBe("multicast")
    expect(kind("ff02::1")).toBe("multicast")
    expect(kind("255.255.255.255")).toBe("reserved")
  })

  it("IPv6 forms that carry an IPv4 address are judged by it", () => {
    expect(kind("::ffff:127.0.0.1")).toBe("loopback")
    expect(kind("::ffff:7f00:1")).toBe("loopback")
    expect(kind("::ffff:169.254.169.254")).toBe("cloud metadata")
    expect(kind("64:ff9b::10.0.0.1")).toBe("private")
    expect(kind("2002:c0a8:101::1")).toBe("private")
    expect(kind("::ffff:93.184.216.34")).toBeUndefined()
  })

  it("public addresses are not internal", () => {
    for (const address of ["93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:2800:220:1::1", "169.255.0.1"]) {
      expect(kind(address)).toBeUndefined()
    }
  })

  it("a URL's host is parsed with or without brackets and zone; names are not addresses", () => {
    expect(parseAddress("[::1]")?.family).toBe(6)
    expect(parseAddress("fe80::1%eth0")?.family).toBe(6)
    expect(parseAddress("example.com")).toBeUndefined()
    expect(isLocalhostName("localhost")).toBe(true)
    expect(isLocalhostName("api.LOCALHOST.")).toBe(true)
    expect(isLocalhostName("localhost.example.com")).toBe(false)
  })
})

describe("the allow-list", () => {
  it("takes names, *. wildcards, addresses and CIDR ranges, and refuses anything else", () => {
    expect(allow(" receiver.internal, *.svc.cluster.local ,10.0.0.0/8, ::1, fd00::/8,127.0.0.1").length).toBe(6)
    for (const bad of ["10.0.0.0/33", "http://x", "a b", "::1/129", "1.2.3.4.5", "host:8080"]) {
      expect(Either.isLeft(parseAllowedHosts(bad))).toBe(true)
    }
    expect(allow("")).toEqual([])
  })

  it("a listed name allows the name whatever it resolves to; a listed range allows the addresses in it", () => {
    const list = allow("hooks.internal,*.svc.local,10.0.0.0/8,127.0.0.1")
    expect(hostAllowed(list, "HOOKS.internal.")).toBe(true)
    expect(hostAllowed(list, "a.b.svc.local")).toBe(true)
    expect(hostAllowed(list, "svc.local")).toBe(false)
    expect(hostAllowed(list, "other.internal")).toBe(false)
    expect(refusal(list, "x.example", "10.9.9.9")).toBeUndefined()
    expect(refusal(list, "127.0.0.1", "127.0.0.1")).toBeUndefined()
    expect(refusal(list, "[::ffff:127.0.0.1]", "::ffff:127.0.0.1")).toBeUndefined()
    expect(refusal(list, "127.0.0.2", "127.0.0.2")).toBe("127.0.0.2 is a loopback address")
    expect(refusal([], "rebind.example", "192.168.0.5")).toBe("rebind.example resolves to 192.168.0.5, a private address")
    expect(refusal([], "x.example", "93.184.216.34")).toBeUndefined()
  })
})

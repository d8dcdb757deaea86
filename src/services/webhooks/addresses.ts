/**
 * Which addresses a webhook may post to. A webhook URL is chosen by an API caller, and the server posts to it from
 * inside the network: without a check, a webhook could reach the database port on loopback, an admin page on the
 * private network or the cloud metadata service (credentials). So loopback, private, link-local, metadata,
 * unspecified, shared (CGNAT), multicast and reserved ranges are refused, unless the operator lists the host or a
 * range in `GLOSS_WEBHOOKS_ALLOWED_HOSTS` (receivers that live inside the network). Pure functions, no I/O.
 */
import { Either } from "effect"
import * as net from "node:net"

export interface Address {
  readonly family: 4 | 6
  readonly bytes: Uint8Array
}

interface Range extends Address {
  readonly prefix: number
}

/** One entry of the allow-list: a host name (exact, or every subdomain with `*.`) or an address range. */
export type AllowedHost =
  | { readonly _tag: "Name"; readonly name: string }
  | { readonly _tag: "Subdomains"; readonly suffix: string }
  | { readonly _tag: "Range"; readonly range: Range; readonly text: string }

/** `[::1]` (a URL's host), `fe80::1%eth0` (a zone) and plain addresses; anything else is not an address. */
export const parseAddress = (raw: string): Address | undefined => {
  const text = raw.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "")
  const kind = net.isIP(text)
  if (kind === 4) return { family: 4, bytes: Uint8Array.from(text.split(".").map(Number)) }
  if (kind !== 6) return undefined
  // An IPv6 address may end in a dotted IPv4 address (`::ffff:127.0.0.1`): two groups' worth.
  const lastColon = text.lastIndexOf(":")
  const dotted = text.slice(lastColon + 1).includes(".") ? text.slice(lastColon + 1).split(".").map(Number) : undefined
  const hex = dotted === undefined ? text : `${text.slice(0, lastColon + 1)}0:0`
  const [left = "", right] = hex.split("::")
  const head = left === "" ? [] : left.split(":")
  const tail = right === undefined || right === "" ? [] : right.split(":")
  const groups = right === undefined ? head : [...head, ...Array<string>(8 - head.length - tail.length).fill("0"), ...tail]
  const bytes = new Uint8Array(16)
  groups.forEach((group, i) => {
    const value = parseInt(group, 16)
    bytes[i * 2] = value >> 8
    bytes[i * 2 + 1] = value & 0xff
  })
  if (dotted !== undefined) bytes.set(dotted, 12)
  return { family: 6, bytes }
}

const parseRange = (text: string): Range | undefined => {
  const [base = "", bits] = text.split("/")
  const address = parseAddress(base)
  if (address === undefined) return undefined
  const max = address.family === 4 ? 32 : 128
  if (bits === undefined) return { ...address, prefix: max }
  const prefix = Number(bits)
  return /^\d+$/.test(bits) && prefix <= max ? { ...address, prefix } : undefined
}

const contains = (range: Range, address: Address): boolean => {
  if (range.family !== address.family) return false
  for (let bit = 0; bit < range.prefix; bit += 8) {
    const left = range.prefix - bit
    const mask = left >= 8 ? 0xff : (0xff << (8 - left)) & 0xff
    if (((range.bytes[bit / 8] ?? 0) & mask) !== ((address.bytes[bit / 8] ?? 0) & mask)) return false
  }
  return true
}

const ranges = (list: ReadonlyArray<readonly [string, string]>) =>
  list.map(([cidr, kind]) => ({ range: parseRange(cidr)!, kind })) // written below, all valid

/** First match wins: the metadata addresses sit inside the link-local and ULA ranges. */
const REFUSED = ranges([
  ["169.254.169.254/32", "cloud metadata"],
  ["fd00:ec2::254/128", "cloud metadata"],
  ["0.0.0.0/8", "unspecified"],
  ["127.0.0.0/8", "loopback"],
  ["10.0.0.0/8", "private"],
  ["172.16.0.0/12", "private"],
  ["192.168.0.0/16", "private"],
  ["100.64.0.0/10", "shared (CGNAT)"],
  ["169.254.0.0/16", "link-local"],
  ["192.0.0.0/24", "reserved"],
  ["198.18.0.0/15", "reserved"],
  ["224.0.0.0/4", "multicast"],
  ["240.0.0.0/4", "reserved"],
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  ["fc00::/7", "private (unique local)"],
  ["fec0::/10", "private (site-local)"],
  ["fe80::/10", "link-local"],
  ["ff00::/8", "multicast"]
])

/** IPv6 forms that carry an IPv4 address, which is what a connection to them reaches: it is checked in turn. */
const EMBEDDING = [
  { range: parseRange("::ffff:0:0/96")!, at: 12 }, // IPv4-mapped
  { range: parseRange("::/96")!, at: 12 }, // IPv4-compatible (deprecated, still routed by some stacks)
  { range: parseRange("64:ff9b::/96")!, at: 12 }, // NAT64
  { range: parseRange("2002::/16")!, at: 2 } // 6to4
]

const embedded = (address: Address): Address | undefined => {
  if (address.family !== 6) return undefined
  const found = EMBEDDING.find(({ range }) => contains(range, address))
  return found === undefined ? undefined : { family: 4, bytes: address.bytes.slice(found.at, found.at + 4) }
}

/** The kind of internal range `address` is in ("loopback", "private"…), or undefined for a public address. */
export const internalKind = (address: Address): string | undefined => {
  const kind = REFUSED.find(({ range }) => contains(range, address))?.kind
  if (kind !== undefined) return kind
  const inner = embedded(address)
  return inner === undefined ? undefined : internalKind(inner)
}

/** A comma list of host names, `*.` wildcards, addresses and CIDR ranges, as `GLOSS_WEBHOOKS_ALLOWED_HOSTS` holds it. */
export const parseAllowedHosts = (raw: string): Either.Either<ReadonlyArray<AllowedHost>, string> => {
  const entries: Array<AllowedHost> = []
  for (const item of raw.split(",").map((part) => part.trim().toLowerCase()).filter((part) => part !== "")) {
    const range = /^[\d.]+(\/\d+)?$|:/.test(item) ? parseRange(item) : undefined
    if (range !== undefined) entries.push({ _tag: "Range", range, text: item })
    else if (/^\*\.[a-z0-9.-]+$/.test(item)) entries.push({ _tag: "Subdomains", suffix: item.slice(1).replace(/\.$/, "") })
    else if (/^[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?\.?$/.test(item) && !/^[\d.]+$/.test(item)) {
      entries.push({ _tag: "Name", name: item.replace(/\.$/, "") })
    } else {
      return Either.left(`expected host names, *.domain wildcards, IP addresses or CIDR ranges, got ${JSON.stringify(item)}`)
    }
  }
  return Either.right(entries)
}

/** A URL's host as compared with the list: lower case, no brackets, no trailing dot. */
const normalHost = (host: string) => host.toLowerCase().replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "")

/** Whether the host name itself is listed: then any address it resolves to is accepted. */
export const hostAllowed = (allowed: ReadonlyArray<AllowedHost>, host: string): boolean => {
  const name = normalHost(host)
  return allowed.some((entry) =>
    entry._tag === "Name"
      ? entry.name === name
      : entry._tag === "Subdomains"
      ? name.endsWith(entry.suffix)
      : false
  )
}

/**
 * Why posting to `address` (what `host` resolved to, or the host itself when it is an address) is refused, or
 * undefined when it is allowed: public, or listed.
 */
export const refusal = (allowed: ReadonlyArray<AllowedHost>, host: string, address: string): string | undefined => {
  const parsed = parseAddress(address)
  if (parsed === undefined) return `${address} is not an IP address`
  const kind = internalKind(parsed)
  if (kind === undefined) return undefined
  const inner = embedded(parsed) ?? parsed
  if (allowed.some((entry) => entry._tag === "Range" && (contains(entry.range, parsed) || contains(entry.range, inner)))) {
    return undefined
  }
  const name = normalHost(host)
  const what = `${kind} address`
  return parseAddress(name) !== undefined ? `${name} is a ${what}` : `${name} resolves to ${address}, a ${what}`
}

/** `localhost` and its subdomains are loopback by definition (RFC 6761): refused without asking the resolver. */
export const isLocalhostName = (host: string): boolean => {
  const name = normalHost(host)
  return name === "localhost" || name.endsWith(".localhost")
}

/**
 * Which addresses a webhook may post to. A webhook URL is chosen by an API caller, and the server posts to it from
 * inside the network: without a check, a webhook could reach the database port on loopback, an admin page on the
 * private network or the cloud metadata service (credentials). So loopback, private, link-local, metadata,
 * unspecified, shared (CGNAT), multicast and reserved ranges are refused, unless the operator lists the host or a
 * range in `GLOSS_WEBHOOKS_ALLOWED_HOSTS` (receivers that live inside the network). Pure functions, no I/O.
 */
import { type Address, type AllowedHost, contains, normalHost, parseAddress, parseRange } from "../../config/hostList.js"

export { type AllowedHost, hostAllowed, parseAddress, parseAllowedHosts } from "../../config/hostList.js"

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

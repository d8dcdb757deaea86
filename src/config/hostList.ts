/**
 * IP addresses, CIDR ranges, and lists of hosts made of names, `*.` wildcards, addresses and ranges, as
 * `GLOSS_WEBHOOKS_ALLOWED_HOSTS` holds them. Pure functions, no I/O.
 */
import { Either } from "effect"
import * as net from "node:net"

export interface Address {
  readonly family: 4 | 6
  readonly bytes: Uint8Array
}

export interface Range extends Address {
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

export const parseRange = (text: string): Range | undefined => {
  const [base = "", bits] = text.split("/")
  const address = parseAddress(base)
  if (address === undefined) return undefined
  const max = address.family === 4 ? 32 : 128
  if (bits === undefined) return { ...address, prefix: max }
  const prefix = Number(bits)
  return /^\d+$/.test(bits) && prefix <= max ? { ...address, prefix } : undefined
}

/** Whether `address` is in `range` (never across families). */
export const contains = (range: Range, address: Address): boolean => {
  if (range.family !== address.family) return false
  for (let bit = 0; bit < range.prefix; bit += 8) {
    const left = range.prefix - bit
    const mask = left >= 8 ? 0xff : (0xff << (8 - left)) & 0xff
    if (((range.bytes[bit / 8] ?? 0) & mask) !== ((address.bytes[bit / 8] ?? 0) & mask)) return false
  }
  return true
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
export const normalHost = (host: string) => host.toLowerCase().replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "")

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


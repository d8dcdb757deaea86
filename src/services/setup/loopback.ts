/**
 * Whether a client address is the server's own machine: 127.0.0.0/8 and ::1, also as an IPv4-mapped IPv6 address
 * (`::ffff:127.0.0.1`, how a dual-stack socket shows an IPv4 peer). No address (a request a proxy forwarded without
 * GLOSS_TRUST_PROXY, see http/handlers/clientAddress.ts) is not loopback.
 */
import { Option } from "effect"

export const isLoopback = (address: Option.Option<string>): boolean =>
  Option.match(address, {
    onNone: () => false,
    onSome: (raw) => {
      const ip = raw.trim().toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "")
      return ip === "::1" || ip === "0:0:0:0:0:0:0:1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ip)
    }
  })

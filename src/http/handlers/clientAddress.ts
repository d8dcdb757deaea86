import { HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"

/**
 * The last address of `X-Forwarded-For`: the one the proxy in front of us appended, the only one not written by the
 * client (who may send any addresses in the header themselves).
 */
const lastForwarded = (header: string | undefined): Option.Option<string> =>
  Option.fromNullable(header?.split(",").map((part) => part.trim()).filter((part) => part !== "").at(-1))

/**
 * Who failed sign-ins are counted against besides the username: the socket's peer, so behind a reverse proxy
 * every client shares the proxy's address unless GLOSS_TRUST_PROXY says to read X-Forwarded-For.
 */
export const clientAddress = (trustProxy: boolean) =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
    trustProxy
      ? Option.orElse(lastForwarded(request.headers["x-forwarded-for"]), () => request.remoteAddress)
      : request.remoteAddress)

const FORWARDING_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip"] as const

/**
 * The client address a privilege of the server's own machine is decided on (the set-up without its token). A
 * request that a proxy forwarded has none unless GLOSS_TRUST_PROXY names its client: behind a proxy on the same
 * machine, the socket's peer is the proxy's loopback address, whoever the client is.
 */
export const directClientAddress = (trustProxy: boolean) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    !trustProxy && FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined)
      ? Effect.succeedNone
      : clientAddress(trustProxy))

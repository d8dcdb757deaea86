/**
 * Where webhooks may post (see `addresses.ts` for the ranges): checked when a webhook is created or its URL
 * changed (a 422 naming why), and again on every delivery, on the addresses the name resolves to *then*: the
 * connection is made to the very address that was checked (a `lookup` for the socket), so a DNS answer that changes
 * between creation and delivery, or between a check and a connect, cannot reach an internal address.
 */
import * as dns from "node:dns"
import type { LookupFunction } from "node:net"
import { Context, Duration, Effect, Option } from "effect"
import { GlossConfig } from "../../Config.js"
import { Unprocessable } from "../../domain/Errors.js"
import { hostAllowed, isLocalhostName, parseAddress, refusal } from "./addresses.js"

export interface Resolved {
  readonly address: string
  readonly family: number
}

/** Name resolution, as the system does it (`/etc/hosts`, then DNS); tests substitute their own answers. */
export type Resolve = (host: string) => Promise<ReadonlyArray<Resolved>>

export class WebhookResolver extends Context.Reference<WebhookResolver>()("Gloss/WebhookResolver", {
  defaultValue: (): Resolve => (host) => dns.promises.lookup(host, { all: true, verbatim: true })
}) {}

/** How long creation waits for an answer about a name before accepting it unchecked (delivery checks it anyway). */
const CREATE_RESOLVE_TIMEOUT = Duration.seconds(3)

/** The error code a refused destination fails the connection with, so delivery can tell it from a network error. */
export const REFUSED_DESTINATION = "EWEBHOOKDESTINATION"

export class RefusedDestination extends Error {
  readonly code = REFUSED_DESTINATION
}

const hostOf = (url: string) => new URL(url).hostname

export class Destinations extends Effect.Service<Destinations>()("Gloss/WebhookDestinations", {
  effect: Effect.gen(function*() {
    const allowed = (yield* GlossConfig).webhooks.allowedHosts
    const resolve = yield* WebhookResolver

    /** Why `host` (a name or an address) may not be posted to without resolving it, if that is known already. */
    const refusedAsWritten = (host: string): string | undefined => {
      if (hostAllowed(allowed, host)) return undefined
      if (parseAddress(host) !== undefined) return refusal(allowed, host, host)
      return isLocalhostName(host) ? refusal(allowed, host, "127.0.0.1") : undefined
    }

    /** Why posting to any of `addresses` (what `host` resolved to) is refused, if it is. */
    const refusedResolved = (host: string, addresses: ReadonlyArray<Resolved>): string | undefined => {
      if (hostAllowed(allowed, host)) return undefined
      for (const { address } of addresses) {
        const why = refusal(allowed, host, address)
        if (why !== undefined) return why
      }
      return undefined
    }

    /**
     * At creation and URL change. A name that does not resolve (yet, or from this machine) is accepted: the
     * receiver may not be deployed yet, and every delivery checks what the name resolves to at that moment.
     */
    const vet = (url: string): Effect.Effect<void, Unprocessable> =>
      Effect.gen(function*() {
        const host = hostOf(url)
        const written = refusedAsWritten(host)
        const why = written ?? (parseAddress(host) !== undefined || hostAllowed(allowed, host)
          ? undefined
          : Option.flatMap(
            yield* Effect.tryPromise(() => resolve(host)).pipe(Effect.timeout(CREATE_RESOLVE_TIMEOUT), Effect.option),
            (addresses) => Option.fromNullable(refusedResolved(host, addresses))
          ).pipe(Option.getOrUndefined))
        if (why !== undefined) {
          return yield* new Unprocessable({
            detail: `The webhook URL is not allowed: ${why}. Webhooks may not post to internal addresses ` +
              `unless the server's GLOSS_WEBHOOKS_ALLOWED_HOSTS lists them`
          })
        }
      })

    /**
     * The socket's `lookup` at delivery: resolves, refuses the connection if any address is internal, and hands
     * the socket the checked addresses, so what was checked is what is connected to.
     */
    const lookup: LookupFunction = (hostname, options, callback) => {
      const fail = (error: NodeJS.ErrnoException) => callback(error, "", 0)
      const written = refusedAsWritten(hostname)
      if (written !== undefined) return fail(new RefusedDestination(written))
      resolve(hostname).then(
        (all) => {
          const wanted = all.filter((a) => options.family === undefined || options.family === 0 || a.family === options.family)
          const why = refusedResolved(hostname, all)
          if (why !== undefined) return fail(new RefusedDestination(why))
          const first = wanted[0]
          if (first === undefined) return fail(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }))
          if (options.all === true) return callback(null, wanted.map((a) => ({ address: a.address, family: a.family })))
          return callback(null, first.address, first.family)
        },
        (error: NodeJS.ErrnoException) => fail(error)
      )
    }

    /** Before connecting to a URL whose host is an address (sockets do not look those up). */
    const refusedLiteral = (url: string): string | undefined => {
      const host = hostOf(url)
      return parseAddress(host) === undefined ? undefined : refusedAsWritten(host)
    }

    return { vet, lookup, refusedLiteral } as const
  })
}) {}

/**
 * The Effect face: `GlossClient` is the service tag, and its constructors build a client, check it
 * with `GET /api/v1/me` (which fills the `me` cache) and make it the default client for the life of their scope.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { Context, Effect, Layer } from "effect"
import { type DeployOptions, deployOnSpaces } from "../deploy/deployOnSpaces.js"
import { type CredentialsOptions, resolveCredentials } from "./credentials.js"
import { becomeDefault, currentDefault } from "./defaultClient.js"
import { buildClient, type GlossClientShape } from "./makeClient.js"
import type { ClientOptions } from "./Options.js"

/** `deployOnSpaces`'s options, plus the client's own (the URL, key and headers come from the deployment). */
export interface DeployOnSpacesOptions extends DeployOptions, Omit<ClientOptions, "apiUrl" | "apiKey" | "workspace"> {}

const make = Effect.fn("GlossClient.make")(function*(options: ClientOptions = {}) {
  const client = yield* buildClient(options)
  const user = yield* client.me
  yield* Effect.logDebug(`Logged in as ${user.username} with the role ${user.role}`)
  yield* becomeDefault(client)
  return client
})

const fromCredentials = Effect.fn("GlossClient.fromCredentials")(function*(options: CredentialsOptions = {}) {
  const resolved = yield* resolveCredentials(options).pipe(Effect.provide(NodeFileSystem.layer))
  return yield* make(resolved)
})

/**
 * Deploys to a Hugging Face Space (`deploy/deployOnSpaces.ts`), then connects to it: a private Space also needs the Hub
 * token.
 */
const deploy = Effect.fn("GlossClient.deployOnSpaces")(function*(options: DeployOnSpacesOptions) {
  const deployment = yield* deployOnSpaces(options)
  return yield* make({
    ...options,
    apiUrl: deployment.apiUrl,
    apiKey: deployment.apiKey,
    headers: { ...options.headers, ...deployment.headers }
  })
})

export class GlossClient extends Context.Tag("gloss/GlossClient")<GlossClient, GlossClientShape>() {
  /** A checked client (`GET /api/v1/me`), the default client until the scope closes. */
  static readonly make = make
  static readonly layer = (options: ClientOptions = {}) => Layer.scoped(GlossClient, make(options))
  /** Options from the arguments, the environment, then the stored credentials file (`resolveCredentials`). */
  static readonly fromCredentials = fromCredentials
  static readonly deployOnSpaces = deploy
  /** The last client constructed (by either face), else one from the environment. */
  static readonly default = Effect.suspend(() => {
    const entry = currentDefault()
    return entry === undefined ? make() : entry.service
  }).pipe(Effect.withSpan("GlossClient.default"))
}

/**
 * The Promise face: the Argilla SDK's `Argilla` client, for code without Effect. Each client owns a `ManagedRuntime`
 * holding its `GlossClient`; every method runs the Effect face's method there and rejects with the same tagged
 * error objects. `new Client()` is lazy (nothing is sent until the first call); `Client.connect` and the other
 * static constructors check the connection first, as the Effect constructors do.
 */
import { Cause, Context, Effect, Exit, Layer, Logger, ManagedRuntime, type Scope, Stream } from "effect"
import { Hub } from "../deploy/Hub.js"
import type { User } from "../domain/User.js"
import type { CredentialsOptions } from "./credentials.js"
import { attachFace, clearDefault, currentDefault, setDefault } from "./defaultClient.js"
import { InvalidApiUrl, MissingApiKey, type OptionsError } from "./Errors.js"
import { type DeployOnSpacesOptions, GlossClient } from "./GlossClient.js"
import { buildClient, type GlossClientShape } from "./makeClient.js"
import type { ClientOptions } from "./Options.js"
import {
  promiseAccount,
  promiseAssignment,
  promiseDatasets,
  promiseInvitations,
  promiseReview,
  promiseRecords,
  promiseUsers,
  promiseWebhooks,
  promiseWorkspaces
} from "./promiseCollections.js"

export interface LogEntry {
  /** `DEBUG`, `INFO`, `WARN`, `ERROR`, … */
  readonly level: string
  readonly message: string
}

export interface PromiseOptions {
  /** Where the client's logs go (the not-found warnings among them); default: the console. */
  readonly onLog?: ((entry: LogEntry) => void) | undefined
}

const logTo = (onLog: (entry: LogEntry) => void) =>
  Logger.replace(
    Logger.defaultLogger,
    Logger.make(({ logLevel, message }) => {
      const parts: ReadonlyArray<unknown> = Array.isArray(message) ? message : [message]
      onLog({ level: logLevel.label, message: parts.map(String).join(" ") })
    })
  )

/** The same error objects the Effect face fails with: the first failure, else the defect or the interruption. */
const settle = <A, E>(exit: Exit.Exit<A, E>): A => {
  if (Exit.isSuccess(exit)) return exit.value
  throw Cause.squash(exit.cause)
}

type ServiceLayer = Layer.Layer<GlossClient, unknown>

/**
 * How a client gets its service other than from its options (an Effect constructor, an existing service). Only this
 * module can make one; such a client is registered as the default by whoever built the service.
 */
class ServiceSource {
  constructor(readonly layer: ServiceLayer) {}
}

export class Client {
  readonly #runtime: ManagedRuntime.ManagedRuntime<GlossClient, unknown>
  readonly workspaces
  readonly users
  readonly datasets
  readonly webhooks
  readonly records
  readonly invitations
  readonly account
  readonly review
  readonly assignment

  constructor(options: ClientOptions & PromiseOptions = {}, source?: ServiceSource) {
    const service: ServiceLayer = source?.layer ?? Layer.effect(GlossClient, buildClient(options))
    // Provided (not merged), so that the logs of building the client — a deployment's progress — go there too.
    this.#runtime = ManagedRuntime.make(
      options.onLog === undefined ? service : Layer.provideMerge(service, logTo(options.onLog))
    )
    const run = this.#run.bind(this)
    const iterate = this.#iterate.bind(this)
    this.workspaces = promiseWorkspaces(run, iterate)
    this.users = promiseUsers(run, iterate)
    this.datasets = promiseDatasets(run, iterate)
    this.webhooks = promiseWebhooks(run, iterate)
    this.records = promiseRecords(run, iterate)
    this.invitations = promiseInvitations(run)
    this.account = promiseAccount(run)
    this.review = promiseReview(run)
    this.assignment = promiseAssignment(run)
    if (source === undefined) setDefault({ owner: this, service: this.#service, face: this })
  }

  /** A checked client: `GET /api/v1/me` answered before this resolves. */
  static connect(options: ClientOptions & PromiseOptions = {}): Promise<Client> {
    return Client.#checked(GlossClient.make(options), options)
  }

  /** Options from the arguments, the environment, then the stored credentials file (`resolveCredentials`). */
  static fromCredentials(options: CredentialsOptions & PromiseOptions = {}): Promise<Client> {
    return Client.#checked(GlossClient.fromCredentials(options), options)
  }

  /** Deploys Gloss to a Hugging Face Space, waits until it is built, and connects to it. */
  static deployOnSpaces(options: DeployOnSpacesOptions & PromiseOptions): Promise<Client> {
    return Client.#checked(GlossClient.deployOnSpaces(options).pipe(Effect.provide(Hub.Default)), options)
  }

  /** The last client constructed (by either face), else a new one from the environment. */
  static get default(): Client {
    const entry = currentDefault()
    if (entry?.face !== undefined) return entry.face
    if (entry === undefined) return new Client()
    const face = new Client({}, new ServiceSource(Layer.effect(GlossClient, entry.service)))
    attachFace(entry.owner, face)
    return face
  }

  /** The current user: fetched on first use, then cached. */
  get me(): Promise<User> {
    return this.#run((client) => client.me)
  }

  /** Runs any Effect-face operation on this client (for what the collections do not cover). */
  run<A, E>(f: (client: GlossClientShape) => Effect.Effect<A, E>): Promise<A> {
    return this.#run(f)
  }

  /** Releases the client; it stops being the default client. */
  async close(): Promise<void> {
    clearDefault(this)
    await this.#runtime.dispose()
  }

  get #service(): Effect.Effect<GlossClientShape, OptionsError> {
    return this.#runtime.runtimeEffect.pipe(
      Effect.map((runtime) => Context.get(runtime.context, GlossClient)),
      // A lazy client's runtime can only fail as `buildClient` does, on its options.
      Effect.catchAll((error) =>
        error instanceof MissingApiKey || error instanceof InvalidApiUrl ? Effect.fail(error) : Effect.die(error)
      )
    )
  }

  #run<A, E>(f: (client: GlossClientShape) => Effect.Effect<A, E>): Promise<A> {
    return this.#runtime.runPromiseExit(Effect.flatMap(GlossClient, f)).then(settle)
  }

  #iterate<A, E>(f: (client: GlossClientShape) => Stream.Stream<A, E>): AsyncIterable<A> {
    const runtimeOf = () => this.#runtime.runPromiseExit(Effect.runtime<GlossClient>()).then(settle)
    return {
      async *[Symbol.asyncIterator]() {
        const runtime = await runtimeOf()
        yield* Stream.toAsyncIterableRuntime(Stream.unwrap(Effect.map(GlossClient, f)), runtime)
      }
    }
  }

  static async #checked<E>(
    make: Effect.Effect<GlossClientShape, E, Scope.Scope>,
    options: PromiseOptions
  ): Promise<Client> {
    const client = new Client(options, new ServiceSource(Layer.scoped(GlossClient, make)))
    try {
      const service = await client.#run((service) => Effect.succeed(service))
      attachFace(service, client)
      return client
    } catch (error) {
      await client.#runtime.dispose()
      throw error
    }
  }
}

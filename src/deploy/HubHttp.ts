/**
 * The Hub REST calls `huggingface_hub` makes for the deploy helper, with the same bodies and the
 * same tolerances (an existing repository is not an error where the helper passes `exist_ok=True`).
 */
import { HttpClient, HttpClientRequest, HttpClientResponse } from "@effect/platform"
import { Effect, type Redacted, Schema } from "effect"
import { HubConflict, type HubError, HubNotFound, HubRequestError, HubServerError, HubUnauthorized } from "./Errors.js"

export const Whoami = Schema.Struct({ name: Schema.String, type: Schema.optional(Schema.String) })
export type Whoami = typeof Whoami.Type

/** Only `stage` is used; the Hub sends more (hardware, storage, gcTimeout, …). */
export const SpaceRuntime = Schema.Struct({ stage: Schema.String })
export type SpaceRuntime = typeof SpaceRuntime.Type

const SpaceInfo = Schema.Struct({ id: Schema.String })
const RepoUrl = Schema.Struct({ url: Schema.String })

export interface SpaceSecret {
  readonly key: string
  readonly value: string
  readonly description?: string
}

export interface DuplicateSpace {
  readonly from: string
  readonly to: string
  readonly private: boolean
  readonly hardware?: string
  readonly storage?: string
  readonly secrets: ReadonlyArray<SpaceSecret>
}

type Token = Redacted.Redacted<string>

interface Sent {
  readonly operation: string
  readonly response: HttpClientResponse.HttpClientResponse
}

const repoPath = (repoId: string) => repoId.split("/").map(encodeURIComponent).join("/")

/** The Hub explains failures in `X-Error-Message`; the body is the fallback. */
const failure = (operation: string, response: HttpClientResponse.HttpClientResponse) =>
  Effect.flatMap(
    // The body only decorates the message: a body that cannot be read leaves it empty rather than hiding the status.
    Effect.orElseSucceed(response.text, () => ""),
    (text): Effect.Effect<never, HubError> => {
      const status = response.status
      const detail = response.headers["x-error-message"] ?? text.slice(0, 300)
      if (status === 401) return Effect.fail(new HubUnauthorized({ operation, detail }))
      if (status === 404) return Effect.fail(new HubNotFound({ operation, detail }))
      if (status === 409) return Effect.fail(new HubConflict({ operation, detail }))
      if (status >= 500) return Effect.fail(new HubServerError({ operation, detail, status }))
      return Effect.fail(new HubRequestError({ operation, detail, status }))
    }
  )

export const makeHubHttp = (client: HttpClient.HttpClient, endpoint: string) => {
  const send = (token: Token, method: "GET" | "POST", path: string, body?: unknown) => {
    const operation = `${method} ${path}`
    const request = HttpClientRequest.make(method)(endpoint + path).pipe(
      HttpClientRequest.bearerToken(token),
      HttpClientRequest.acceptJson
    )
    return client.execute(body === undefined ? request : HttpClientRequest.bodyUnsafeJson(request, body)).pipe(
      Effect.mapError((error) => new HubRequestError({ operation, detail: error.message })),
      Effect.map((response): Sent => ({ operation, response }))
    )
  }

  const json = <A, I>(schema: Schema.Schema<A, I>) => ({ operation, response }: Sent) =>
    response.status >= 200 && response.status < 300
      ? HttpClientResponse.schemaBodyJson(schema)(response).pipe(
        Effect.mapError((error) =>
          new HubRequestError({ operation, status: response.status, detail: `unexpected body: ${error.message}` })
        )
      )
      : failure(operation, response)

  /** A 409 from a create call means the repository exists: its URL is in the body, or derived from the id. */
  const urlTolerating409 = (repoId: string) => (sent: Sent) =>
    sent.response.status === 409
      ? HttpClientResponse.schemaBodyJson(RepoUrl)(sent.response).pipe(
        Effect.map(({ url }) => url),
        // huggingface_hub reads the URL from the 409 body too; one without it still means "exists".
        Effect.orElseSucceed(() => `${endpoint}/spaces/${repoId}`)
      )
      : Effect.map(json(RepoUrl)(sent), ({ url }) => url)

  const whoami = Effect.fn("Deploy.Hub.whoami")(function*(token: Token) {
    return yield* Effect.flatMap(send(token, "GET", "/api/whoami-v2"), json(Whoami))
  })

  const spaceExists = Effect.fn("Deploy.Hub.spaceExists")(function*(token: Token, repoId: string) {
    const sent = yield* send(token, "GET", `/api/spaces/${repoPath(repoId)}`)
    const { status, headers } = sent.response
    // The Hub hides others' private repositories behind a 401 tagged RepoNotFound; huggingface_hub reads it as absent.
    if (status === 404 || (status === 401 && headers["x-error-code"] === "RepoNotFound")) return false
    yield* json(SpaceInfo)(sent)
    return true
  })

  const duplicateSpace = Effect.fn("Deploy.Hub.duplicateSpace")(function*(token: Token, options: DuplicateSpace) {
    const body = {
      repository: options.to,
      private: options.private,
      ...(options.hardware === undefined ? {} : { hardware: options.hardware }),
      ...(options.storage === undefined ? {} : { storageTier: options.storage }),
      secrets: options.secrets
    }
    const sent = yield* send(token, "POST", `/api/spaces/${repoPath(options.from)}/duplicate`, body)
    return yield* urlTolerating409(options.to)(sent)
  })

  const createRepo = Effect.fn("Deploy.Hub.createRepo")(function*(token: Token, repoId: string) {
    const slash = repoId.indexOf("/")
    const body = {
      name: repoId.slice(slash + 1),
      organization: slash < 0 ? null : repoId.slice(0, slash),
      type: "space",
      sdk: "docker"
    }
    return yield* urlTolerating409(repoId)(yield* send(token, "POST", "/api/repos/create", body))
  })

  const getRuntime = Effect.fn("Deploy.Hub.getRuntime")(function*(token: Token, repoId: string) {
    return yield* Effect.flatMap(send(token, "GET", `/api/spaces/${repoPath(repoId)}/runtime`), json(SpaceRuntime))
  })

  const restart = Effect.fn("Deploy.Hub.restart")(function*(token: Token, repoId: string) {
    return yield* Effect.flatMap(send(token, "POST", `/api/spaces/${repoPath(repoId)}/restart`), json(SpaceRuntime))
  })

  const addSecret = Effect.fn("Deploy.Hub.addSecret")(function*(token: Token, repoId: string, secret: SpaceSecret) {
    const sent = yield* send(token, "POST", `/api/spaces/${repoPath(repoId)}/secrets`, secret)
    if (sent.response.status < 200 || sent.response.status >= 300) return yield* failure(sent.operation, sent.response)
  })

  return { whoami, spaceExists, duplicateSpace, createRepo, getRuntime, restart, addSecret } as const
}

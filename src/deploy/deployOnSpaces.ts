/**
 * `deployOnSpaces`: the Argilla SDK's `deploy_on_spaces`, step by step as it runs them, returning what a client needs
 * to reach the Space instead of the client itself, so that `GlossClient.deployOnSpaces` can build one from it.
 */
import { Duration, Effect, Either, Redacted, Schedule } from "effect"
import { InvalidApiKeyLength, MIN_API_KEY_LENGTH } from "./Errors.js"
import { Hub } from "./Hub.js"
import { spaceUrl } from "./sanitize.js"
import { isBuilding, isStopped, parseStage, type SpaceStage } from "./SpaceStage.js"

/** Argilla's template (a Docker Space serving on 6900, reading API_KEY and WORKSPACE): Gloss speaks its API. */
export const DEFAULT_TEMPLATE_SPACE = "argilla/argilla-template-space"
export const DEFAULT_REPO_NAME = "gloss"
/** The value of the Space's `WORKSPACE` secret: the workspace created for the owner at first start. */
export const DEFAULT_WORKSPACE = "gloss"

export type SpaceStorage = "small" | "medium" | "large"
/** The Hub's flavors grow over time, so any string is passed through. */
export type SpaceHardware = "cpu-basic" | "cpu-upgrade" | (string & {})

export interface DeployOptions {
  /** The owner's API key on the new Space (its `API_KEY` secret); at least 8 characters. */
  readonly apiKey: string
  readonly repoName?: string | undefined
  /** Defaults to the user the token belongs to. */
  readonly orgName?: string | undefined
  readonly hfToken?: string | undefined
  /** None: no persistent storage, and the data is lost whenever the Space restarts. */
  readonly spaceStorage?: SpaceStorage | undefined
  readonly spaceHardware?: SpaceHardware | undefined
  readonly private?: boolean | undefined
  readonly templateSpace?: string | undefined
  readonly pollInterval?: Duration.DurationInput | undefined
  /** Where the returned deployment points instead of the Space's URL (tests). */
  readonly apiUrl?: string | undefined
}

/**
 * Structurally a client's options: `{ apiUrl, apiKey, headers }`, so it can be passed to a constructor, plus what was
 * deployed.
 */
export interface SpaceDeployment {
  readonly apiUrl: string
  readonly apiKey: string
  /** `Authorization: Bearer <hub token>` for a private Space, which the Hub's proxy requires; else empty. */
  readonly headers: Readonly<Record<string, string>>
  readonly repoId: string
  /** The stage the polling ended on: RUNNING, or PAUSED/STOPPED when the Space went to sleep meanwhile. */
  readonly stage: SpaceStage
}

const secondsLabel = (interval: Duration.Duration) => {
  const millis = Duration.toMillis(interval)
  return millis % 1000 === 0 ? `${millis / 1000} second${millis === 1000 ? "" : "s"}` : Duration.format(interval)
}

interface Progress {
  readonly stage: SpaceStage
  readonly building: boolean
}

/** Repeats after `interval` while the last answer was still building; yields that last answer. */
const whileBuilding = (interval: Duration.DurationInput) =>
  Schedule.spaced(interval).pipe(
    Schedule.intersect(Schedule.recurWhile((progress: Progress) => progress.building)),
    Schedule.passthrough
  )

export const deployOnSpaces = Effect.fn("Deploy.deployOnSpaces")(function*(options: DeployOptions) {
  if (options.apiKey.length < MIN_API_KEY_LENGTH) {
    return yield* new InvalidApiKeyLength({ length: options.apiKey.length })
  }
  const hub = yield* Hub
  const token = yield* hub.token(options.hfToken)
  const user = yield* hub.whoami(token)
  const orgName = options.orgName ?? user.name
  const repoName = options.repoName ?? DEFAULT_REPO_NAME
  const repoId = `${orgName}/${repoName}`

  if (yield* hub.spaceExists(token, repoId)) {
    const runtime = yield* hub.getRuntime(token, repoId)
    if (yield* isStopped(runtime.stage)) yield* hub.restart(token, repoId)
    yield* Effect.logWarning(
      `Space ${repoId} already exists. Using provided API key. If client authentication fails, go to ` +
        `${hub.spacePage(repoId)} to login with OAuth and get the correct API key.`
    )
  } else {
    if (options.spaceStorage === undefined) {
      yield* Effect.logWarning(
        "No storage provided. The space will not have persistent storage so every 48 hours your data will be reset."
      )
    }
    yield* hub.duplicateSpace(token, {
      from: options.templateSpace ?? DEFAULT_TEMPLATE_SPACE,
      to: repoId,
      private: options.private ?? false,
      hardware: options.spaceHardware ?? "cpu-basic",
      ...(options.spaceStorage === undefined ? {} : { storage: options.spaceStorage }),
      secrets: [
        { key: "API_KEY", value: options.apiKey, description: "The API key of the owner user." },
        { key: "WORKSPACE", value: DEFAULT_WORKSPACE, description: "The workspace of the space." }
      ]
    })
  }

  const repoUrl = yield* hub.createRepo(token, repoId)
  yield* Effect.logInfo(`Gloss is being deployed at: ${repoUrl}`)

  const interval = Duration.decode(options.pollInterval ?? "10 seconds")
  const progress = hub.getRuntime(token, repoId).pipe(
    Effect.flatMap(({ stage }) => Either.all({ stage: parseStage(stage), building: isBuilding(stage) })),
    Effect.tap(({ building, stage }) =>
      building ? Effect.logInfo(`Deployment in progress (${stage}). Waiting ${secondsLabel(interval)}.`) : Effect.void
    )
  )
  const { stage } = yield* Effect.repeat(progress, whileBuilding(interval))

  const deployment: SpaceDeployment = {
    apiUrl: options.apiUrl ?? spaceUrl(orgName, repoName),
    apiKey: options.apiKey,
    headers: options.private === true ? { Authorization: `Bearer ${Redacted.value(token)}` } : {},
    repoId,
    stage
  }
  return deployment
})

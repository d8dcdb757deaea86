/**
 * A Space's runtime stage, as the Argilla SDK's deploy helper reads it: seven are known (RUNNING_APP_STARTING,
 * RUNNING_BUILDING, BUILDING, APP_STARTING, RUNNING, PAUSED, STOPPED). Stages outside the seven (NO_APP_FILE,
 * CONFIG_ERROR, BUILD_ERROR, RUNTIME_ERROR, DELETING, anything new) mean the Space is broken: both rules fail rather
 * than guess, so the helper neither restarts nor waits on it.
 */
import { Either, Schema } from "effect"
import { InvalidSpaceStage } from "./Errors.js"

export const SpaceStage = Schema.Literal(
  "RUNNING_APP_STARTING",
  "RUNNING_BUILDING",
  "BUILDING",
  "APP_STARTING",
  "RUNNING",
  "PAUSED",
  "STOPPED"
)
export type SpaceStage = typeof SpaceStage.Type

const BUILDING: ReadonlySet<SpaceStage> = new Set(["RUNNING_APP_STARTING", "RUNNING_BUILDING", "BUILDING", "APP_STARTING"])
const STOPPED: ReadonlySet<SpaceStage> = new Set(["PAUSED", "STOPPED"])

const isKnown = Schema.is(SpaceStage)

export const parseStage = (stage: string): Either.Either<SpaceStage, InvalidSpaceStage> =>
  isKnown(stage) ? Either.right(stage) : Either.left(new InvalidSpaceStage({ stage }))

/** Still coming up: the deploy helper keeps polling. */
export const isBuilding = (stage: string): Either.Either<boolean, InvalidSpaceStage> =>
  Either.map(parseStage(stage), (known) => BUILDING.has(known))

/** Asleep or stopped: an existing Space is restarted. */
export const isStopped = (stage: string): Either.Either<boolean, InvalidSpaceStage> =>
  Either.map(parseStage(stage), (known) => STOPPED.has(known))

/** The start-up check: the cluster must be the configured engine, at a supported version. */
import { Either } from "effect"
import { type EngineName, EngineUnavailable } from "./errors.js"
import type { Flavor } from "./json.js"

export const MINIMUM_VERSION: Readonly<Record<Flavor, string>> = { elasticsearch: "8.5.0", opensearch: "2.4.0" }
export const ENGINE_NAME: Readonly<Record<Flavor, EngineName>> = {
  elasticsearch: "Elasticsearch",
  opensearch: "OpenSearch"
}

/** `8.11.3`, `2.4.0-SNAPSHOT` → [8, 11, 3]; null when it is not a version number. */
const parts = (version: string): ReadonlyArray<number> | null => {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version)
  return match === null ? null : [Number(match[1]), Number(match[2]), Number(match[3])]
}

export const atLeast = (version: string, minimum: string): boolean => {
  const found = parts(version)
  const wanted = parts(minimum)
  if (found === null || wanted === null) return false
  for (let i = 0; i < 3; i++) {
    const [a = 0, b = 0] = [found[i], wanted[i]]
    if (a !== b) return a > b
  }
  return true
}

/** The root document's `version`: `{ number, distribution? }` (OpenSearch says `distribution: "opensearch"`). */
export interface RootVersion {
  readonly number: string
  readonly distribution?: string | undefined
}

export const checkVersion = (
  flavor: Flavor,
  host: string,
  version: RootVersion
): Either.Either<void, EngineUnavailable> => {
  const engine = ENGINE_NAME[flavor]
  const isOpenSearch = version.distribution === "opensearch"
  if (isOpenSearch !== (flavor === "opensearch")) {
    const found = isOpenSearch ? `OpenSearch ${version.number}` : `Elasticsearch ${version.number}`
    return Either.left(EngineUnavailable.notThisEngine(engine, host, found))
  }
  return atLeast(version.number, MINIMUM_VERSION[flavor])
    ? Either.void
    : Either.left(EngineUnavailable.tooOld(engine, host, version.number, MINIMUM_VERSION[flavor]))
}

/**
 * Why a search engine layer could not start. Messages name the cluster by host only: the configured URL may carry
 * credentials, and causes are scrubbed of them too.
 */
import { Data } from "effect"

export type EngineName = "Elasticsearch" | "OpenSearch"

export class EngineUnavailable extends Data.TaggedError("EngineUnavailable")<{
  readonly engine: EngineName
  /** `host:port` of the configured URL. */
  readonly host: string
  /** What is wrong, completing "<engine> at <host> …". */
  readonly problem: string
  readonly cause?: unknown
}> {
  override get message() {
    return `${this.engine} at ${this.host} ${this.problem}. Check GLOSS_ELASTICSEARCH and GLOSS_SEARCH_ENGINE, ` +
      "or set GLOSS_SEARCH_ENGINE=database to search in the database."
  }

  static readonly tooOld = (engine: EngineName, host: string, found: string, minimum: string) =>
    new EngineUnavailable({ engine, host, problem: `runs version ${found}; Gloss needs ${engine} ${minimum} or later` })

  static readonly unreachable = (engine: EngineName, host: string, cause: unknown, secrets: ReadonlyArray<string>) =>
    new EngineUnavailable({ engine, host, problem: `is unreachable (${scrubbed(describe(cause), secrets)})`, cause })

  static readonly notThisEngine = (engine: EngineName, host: string, found: string) =>
    new EngineUnavailable({ engine, host, problem: `answers as ${found}, not ${engine}` })

  static readonly unusable = (engine: EngineName, host: string, problem: string, cause?: unknown) =>
    new EngineUnavailable({ engine, host, problem, cause })
}

const describe = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

/** Removes `user:password@` from URLs and any occurrence of the given secrets. */
export const scrubbed = (text: string, secrets: ReadonlyArray<string>): string =>
  secrets.filter((secret) => secret.length > 0).reduce(
    (result, secret) => result.split(secret).join("***"),
    text.replace(/\/\/[^/@\s]+@/g, "//")
  )

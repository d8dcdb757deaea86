import { HttpApiBuilder } from "@effect/platform"
import { Effect, Option } from "effect"
import { GlossConfig } from "../../Config.js"
import type { Settings } from "../../domain/Info.js"
import { SearchEngine } from "../../services/search/SearchEngine.js"
import { VERSION } from "../../version.js"
import { ServerApi } from "../ServerApi.js"

/** Bytes as Argilla renders memory counters: `"134M"`. */
const human = (bytes: number): string => {
  const units = ["B", "K", "M", "G", "T", "P"]
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${Math.round(value)}${units[unit]}`
}

export const InfoLive = HttpApiBuilder.group(ServerApi, "info", (handlers) =>
  Effect.gen(function*() {
    const config = yield* GlossConfig
    const engine = yield* SearchEngine
    const settings: Settings = {
      argilla: {
        share_your_progress_enabled: config.features.shareYourProgress,
        ...(Option.isSome(config.space)
          ? { show_huggingface_space_persistent_storage_warning: config.features.showSpaceStorageWarning }
          : {})
      },
      ...Option.match(config.space, {
        onNone: () => ({}),
        onSome: (space) => ({
          huggingface: {
            space_id: space.id,
            space_title: Option.getOrNull(space.title),
            space_subdomain: Option.getOrNull(space.subdomain),
            space_host: Option.getOrNull(space.host),
            space_repo_name: Option.getOrNull(space.repoName),
            space_author_name: Option.getOrNull(space.authorName),
            space_persistent_storage_enabled: space.persistentStorageEnabled
          }
        })
      })
    }
    return handlers
      .handle("version", () => Effect.succeed({ version: VERSION }))
      // As Argilla: the engine's own description (a cluster's root document).
      .handle("status", () =>
        Effect.map(engine.info, (info) => ({
          version: VERSION,
          search_engine: info,
          memory: Object.fromEntries(Object.entries(process.memoryUsage()).map(([key, bytes]) => [key, human(bytes)]))
        })))
      .handle("settings", () => Effect.succeed(settings))
  }))

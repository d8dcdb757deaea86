/**
 * Showing a user their own API key again (`GET /me`): the key's sealed copy, opened with the key of
 * `secrets/apiKeys.ts`. Only the user themselves is shown it; everyone else sees a key once, when it is created.
 */
import { Effect, Option } from "effect"
import { GlossConfig } from "../../Config.js"
import { apiKeySealingKey } from "../secrets/apiKeys.js"
import { open, seal } from "../secrets/sealing.js"

export { apiKeyDigest, SEALING_KEY_FILE } from "../secrets/apiKeys.js"

export class ApiKeySeal extends Effect.Service<ApiKeySeal>()("Gloss/ApiKeySeal", {
  effect: Effect.gen(function*() {
    const key = yield* apiKeySealingKey(yield* GlossConfig)
    let warned = false

    /**
     * The user's own key, opened from its sealed copy; `None` when it was sealed under another key (the secret
     * changed), said once per process: the key itself still works, only showing it again is impossible.
     */
    const openOwn = (sealed: string | null): Effect.Effect<Option.Option<string>> =>
      Effect.suspend(() => {
        if (sealed === null) return Effect.succeedNone
        const opened = open(key, sealed)
        if (Option.isSome(opened) || warned) return Effect.succeed(opened)
        warned = true
        return Effect.as(
          Effect.logWarning(
            "An API key's sealed copy cannot be opened with this GLOSS_AUTH_SECRET_KEY (it was sealed under another " +
              "one, or under another api-key-seal.key file): GET /me leaves out `api_key` for such users. Their keys " +
              "still work; give every process the secret the copies were sealed with to show them again."
          ),
          opened
        )
      })

    return { seal: (apiKey: string) => seal(key, apiKey), openOwn } as const
  })
}) {}

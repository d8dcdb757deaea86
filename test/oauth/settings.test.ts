/**
 * The OAuth configuration file: found where Gloss's documentation and Argilla put it, and refused at start when it is
 * wrong.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { loadOAuthSettings } from "../../src/services/oauth/settings.js"

const write = (name: string, yaml: string) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gloss-oauth-")), name)
  fs.writeFileSync(file, yaml)
  return file
}

const load = (env: Record<string, string>) =>
  loadOAuthSettings.pipe(Effect.provide(GlossConfig.fromRecord(env)), Effect.either)

const failure = (env: Record<string, string>) =>
  Effect.map(load(env), (result) => result._tag === "Left" ? result.left.message : "loaded")

describe("OAuth configuration file", () => {
  it.effect("absent: OAuth is off", () =>
    Effect.gen(function*() {
      const result = yield* load({ GLOSS_AUTH_OAUTH_CFG: "/nonexistent/.oauth.yml" })
      expect(result._tag === "Right" && result.right.providers.size).toBe(0)
    }))

  it.effect("credentials from the file win over the environment; the Space's variables are the last resort", () =>
    Effect.gen(function*() {
      const file = write(".oauth.yml", "providers:\n  - name: huggingface\n    client_id: from-file\n    scope: openid\n")
      const fromFile = yield* load({ GLOSS_AUTH_OAUTH_CFG: file, OAUTH2_HUGGINGFACE_CLIENT_ID: "from-env" })
      const provider = fromFile._tag === "Right" ? fromFile.right.providers.get("huggingface") : undefined
      expect(provider?.clientId).toBe("from-file")
      expect(provider?.scope).toBe("openid")
      expect(provider?.endpoints.authorize).toBe("https://huggingface.co/oauth/authorize")

      const bare = write(".oauth.yml", "providers:\n  - name: huggingface\n")
      const fromSpace = yield* load({ GLOSS_AUTH_OAUTH_CFG: bare, OAUTH_CLIENT_ID: "space-id", OAUTH_SCOPES: "openid profile email" })
      const spaceProvider = fromSpace._tag === "Right" ? fromSpace.right.providers.get("huggingface") : undefined
      expect(spaceProvider?.clientId).toBe("space-id")
      expect(spaceProvider?.scope).toBe("openid profile email")
      expect(spaceProvider?.clientSecret).toEqual(Option.none())
    }))

  it.effect("a wrong file stops start-up with one message naming the file and the problem", () =>
    Effect.gen(function*() {
      const github = write(".oauth.yml", "providers:\n  - name: github\n    client_id: x\n")
      expect(yield* failure({ GLOSS_AUTH_OAUTH_CFG: github })).toBe(
        `the OAuth configuration ${github} names the provider 'github'; Gloss supports: huggingface`
      )
      const noId = write(".oauth.yml", "providers:\n  - name: huggingface\n")
      expect(yield* failure({ GLOSS_AUTH_OAUTH_CFG: noId })).toContain(
        "gives provider 'huggingface' no client id: set client_id there or OAUTH2_HUGGINGFACE_CLIENT_ID"
      )
      const broken = write(".oauth.yml", "providers: [\n")
      expect(yield* failure({ GLOSS_AUTH_OAUTH_CFG: broken })).toMatch(/is not valid YAML: /)
      const wrongShape = write(".oauth.yml", "allowed_workspaces: argilla\n")
      expect(yield* failure({ GLOSS_AUTH_OAUTH_CFG: wrongShape })).toMatch(/is invalid: .*allowed_workspaces/)
    }))
})

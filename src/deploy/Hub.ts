/**
 * The Hugging Face Hub as the deploy helper sees it: the REST calls it makes (at `HF_ENDPOINT`, with
 * `Authorization: Bearer <token>`) and where its token comes from. Tests build it with
 * `Hub.DefaultWithoutDependencies` over a fake Hub, a `ConfigProvider` and a non-interactive `Terminal`.
 */
import { FetchHttpClient, FileSystem, HttpClient, Path, Terminal } from "@effect/platform"
// Deep imports: the package root would pull @effect/cluster and @effect/sql into the client bundle.
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as NodeTerminal from "@effect/platform-node/NodeTerminal"
import { Effect } from "effect"
import { makeHubHttp } from "./HubHttp.js"
import { hubSettings } from "./HubSettings.js"
import { makeTokenSource } from "./HubToken.js"

export class Hub extends Effect.Service<Hub>()("Gloss/Deploy/Hub", {
  effect: Effect.gen(function*() {
    const settings = yield* hubSettings
    const http = makeHubHttp(yield* HttpClient.HttpClient, settings.endpoint)
    const token = makeTokenSource({
      settings,
      whoami: http.whoami,
      fs: yield* FileSystem.FileSystem,
      path: yield* Path.Path,
      terminal: yield* Terminal.Terminal
    })
    return {
      ...http,
      token,
      /** The Space's page on the Hub, where its owner logs in with OAuth to read the real API key. */
      spacePage: (repoId: string) => `${settings.endpoint}/spaces/${repoId}`
    } as const
  }),
  dependencies: [FetchHttpClient.layer, NodeFileSystem.layer, NodePath.layer, NodeTerminal.layer]
}) {}

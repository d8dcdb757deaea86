import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ServerApi } from "../ServerApi.js"

export const AccountLive = HttpApiBuilder.group(ServerApi, "account", (handlers) =>
  Effect.succeed(
    handlers
      .handle("changePassword", () => Effect.dieMessage("not implemented yet"))
      .handle("regenerateApiKey", () => Effect.dieMessage("not implemented yet"))
      .handle("renameWorkspace", () => Effect.dieMessage("not implemented yet"))
  ))

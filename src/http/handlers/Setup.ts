import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ServerApi } from "../ServerApi.js"

export const SetupLive = HttpApiBuilder.group(ServerApi, "setup", (handlers) =>
  Effect.succeed(
    handlers
      .handle("status", () => Effect.dieMessage("not implemented yet"))
      .handle("create", () => Effect.dieMessage("not implemented yet"))
  ))

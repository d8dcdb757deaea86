import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { GlossConfig } from "../../Config.js"
import { Setup } from "../../services/setup/Setup.js"
import { ServerApi } from "../ServerApi.js"
import { directClientAddress } from "./clientAddress.js"

export const SetupLive = HttpApiBuilder.group(ServerApi, "setup", (handlers) =>
  Effect.gen(function*() {
    const setup = yield* Setup
    const address = directClientAddress((yield* GlossConfig).auth.signIn.trustProxy)
    return handlers
      .handle("status", () => Effect.flatMap(address, setup.status))
      .handle("create", ({ payload }) => Effect.flatMap(address, (from) => setup.create(payload, from)))
  }))

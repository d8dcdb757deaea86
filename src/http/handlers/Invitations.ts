import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ServerApi } from "../ServerApi.js"

export const InvitationsLive = HttpApiBuilder.group(ServerApi, "invitations", (handlers) =>
  Effect.succeed(
    handlers
      .handle("create", () => Effect.dieMessage("not implemented yet"))
      .handle("list", () => Effect.dieMessage("not implemented yet"))
      .handle("revoke", () => Effect.dieMessage("not implemented yet"))
      .handle("lookup", () => Effect.dieMessage("not implemented yet"))
      .handle("accept", () => Effect.dieMessage("not implemented yet"))
  ))

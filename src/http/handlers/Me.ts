import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ServerApi } from "../ServerApi.js"
import { Workspaces } from "../../services/workspaces/Workspaces.js"
import { CurrentUser } from "../../contract/Authentication.js"

export const MeLive = HttpApiBuilder.group(ServerApi, "me", (handlers) =>
  Effect.gen(function*() {
    const workspaces = yield* Workspaces
    return handlers
      .handle("me", () => CurrentUser)
      .handle("workspaces", () =>
        CurrentUser.pipe(Effect.flatMap(workspaces.workspacesOf), Effect.map((items) => ({ items }))))
  }))

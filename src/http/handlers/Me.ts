import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Users } from "../../services/users/Users.js"
import { ServerApi } from "../ServerApi.js"
import { CurrentUser } from "../../contract/Authentication.js"

export const MeLive = HttpApiBuilder.group(ServerApi, "me", (handlers) =>
  Effect.gen(function*() {
    const users = yield* Users
    return handlers
      .handle("me", () => CurrentUser)
      .handle("workspaces", () =>
        CurrentUser.pipe(Effect.flatMap(users.workspacesOf), Effect.map((items) => ({ items }))))
  }))

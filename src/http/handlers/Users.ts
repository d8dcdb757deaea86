import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Users } from "../../services/users/Users.js"
import { ServerApi } from "../ServerApi.js"
import { Workspaces } from "../../services/workspaces/Workspaces.js"
import { CurrentUser } from "../../contract/Authentication.js"

export const UsersLive = HttpApiBuilder.group(ServerApi, "users", (handlers) =>
  Effect.gen(function*() {
    const users = yield* Users
    const workspaces = yield* Workspaces
    return handlers
      .handle("list", () => CurrentUser.pipe(Effect.flatMap(users.list), Effect.map((items) => ({ items }))))
      .handle("get", ({ path }) => Effect.flatMap(CurrentUser, (actor) => users.get(actor, path.id)))
      .handle("create", ({ payload }) => Effect.flatMap(CurrentUser, (actor) => users.create(actor, payload)))
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (actor) => users.update(actor, path.id, payload)))
      .handle("delete", ({ path }) => Effect.flatMap(CurrentUser, (actor) => users.delete(actor, path.id)))
      .handle("workspaces", ({ path }) =>
        Effect.flatMap(CurrentUser, (actor) => workspaces.listOfUser(actor, path.id)).pipe(
          Effect.map((items) => ({ items }))
        ))
  }))

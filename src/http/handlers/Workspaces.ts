import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Workspaces } from "../../services/workspaces/Workspaces.js"
import { ServerApi } from "../ServerApi.js"
import { CurrentUser } from "../../contract/Authentication.js"

export const WorkspacesLive = HttpApiBuilder.group(ServerApi, "workspaces", (handlers) =>
  Effect.gen(function*() {
    const workspaces = yield* Workspaces
    return handlers
      .handle("create", ({ payload }) => Effect.flatMap(CurrentUser, (actor) => workspaces.create(actor, payload)))
      .handle("get", ({ path }) => Effect.flatMap(CurrentUser, (actor) => workspaces.get(actor, path.id)))
      .handle("delete", ({ path }) => Effect.flatMap(CurrentUser, (actor) => workspaces.delete(actor, path.id)))
      .handle("listUsers", ({ path }) =>
        Effect.flatMap(CurrentUser, (actor) => workspaces.listUsers(actor, path.id)).pipe(
          Effect.map((items) => ({ items }))
        ))
      .handle("addUser", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (actor) => workspaces.addUser(actor, path.id, payload.user_id)))
      .handle("removeUser", ({ path }) =>
        Effect.flatMap(CurrentUser, (actor) => workspaces.removeUser(actor, path.id, path.user_id)))
  }))

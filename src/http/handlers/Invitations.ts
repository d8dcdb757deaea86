import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentUser } from "../../contract/Authentication.js"
import { Invitations } from "../../services/invitations/Invitations.js"
import { ServerApi } from "../ServerApi.js"

export const InvitationsLive = HttpApiBuilder.group(ServerApi, "invitations", (handlers) =>
  Effect.gen(function*() {
    const invitations = yield* Invitations
    return handlers
      .handle("create", ({ payload }) => Effect.flatMap(CurrentUser, (user) => invitations.create(user, payload)))
      .handle("list", () =>
        Effect.flatMap(CurrentUser, invitations.list).pipe(Effect.map((items) => ({ items }))))
      .handle("revoke", ({ path }) => Effect.flatMap(CurrentUser, (user) => invitations.revoke(user, path.id)))
      .handle("lookup", ({ urlParams }) => invitations.lookup(urlParams.token))
      .handle("accept", ({ payload }) => invitations.accept(payload))
  }))

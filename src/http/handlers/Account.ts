import { HttpApiBuilder, HttpApp, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { GlossConfig } from "../../Config.js"
import { CurrentUser } from "../../contract/Authentication.js"
import { Account } from "../../services/account/Account.js"
import { ServerApi } from "../ServerApi.js"
import { clientAddress } from "./clientAddress.js"

export const AccountLive = HttpApiBuilder.group(ServerApi, "account", (handlers) =>
  Effect.gen(function*() {
    const account = yield* Account
    const address = clientAddress((yield* GlossConfig).auth.signIn.trustProxy)
    return handlers
      .handle("changePassword", ({ payload }) =>
        Effect.all([CurrentUser, address]).pipe(
          Effect.flatMap(([user, from]) => account.changePassword(user, payload, from)),
          Effect.tapErrorTag("SignInLimited", (limited) =>
            HttpApp.appendPreResponseHandler((_, response) =>
              Effect.succeed(HttpServerResponse.setHeader(response, "retry-after", String(limited.retryAfterSeconds)))))
        ))
      .handle("regenerateApiKey", () => Effect.flatMap(CurrentUser, account.regenerateApiKey))
      .handle("renameWorkspace", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (user) => account.renameWorkspace(user, path.id, payload.name)))
  }))

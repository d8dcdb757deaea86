import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Auth } from "../../services/auth/Auth.js"
import { ServerApi } from "../ServerApi.js"

export const AuthLive = HttpApiBuilder.group(ServerApi, "auth", (handlers) =>
  Effect.gen(function*() {
    const auth = yield* Auth
    return handlers.handle("token", ({ payload }) => auth.login(payload.username, payload.password))
  }))

import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Jobs } from "../../services/jobs/Jobs.js"
import { ServerApi } from "../ServerApi.js"
import { CurrentUser } from "../../contract/Authentication.js"

export const JobsLive = HttpApiBuilder.group(ServerApi, "jobs", (handlers) =>
  Effect.gen(function*() {
    const jobs = yield* Jobs
    return handlers.handle("get", ({ path }) => Effect.flatMap(CurrentUser, (actor) => jobs.get(actor, path.id)))
  })).pipe(Layer.provide(Jobs.Default))

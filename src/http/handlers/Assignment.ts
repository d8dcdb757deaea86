import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { CurrentUser } from "../../contract/Authentication.js"
import { Assignments } from "../../services/assignment/Assignments.js"
import { Queues } from "../../services/assignment/Queues.js"
import { ServerApi } from "../ServerApi.js"

export const AssignmentLive = HttpApiBuilder.group(ServerApi, "assignment", (handlers) =>
  Effect.gen(function*() {
    const assignments = yield* Assignments
    const queues = yield* Queues
    const as = <A, E, R>(f: (user: typeof CurrentUser.Service) => Effect.Effect<A, E, R>) => Effect.flatMap(CurrentUser, f)
    return handlers
      .handle("settings", ({ path }) => as((user) => assignments.settings(user, path.id)))
      .handle("updateSettings", ({ path, payload }) => as((user) => assignments.updateSettings(user, path.id, payload)))
      .handle("summary", ({ path }) => as((user) => assignments.summary(user, path.id)))
      .handle("assign", ({ path, payload }) => as((user) => assignments.assign(user, path.id, payload)))
      .handle("unassign", ({ path, payload }) => as((user) => assignments.unassign(user, path.id, payload)))
      .handle("move", ({ path, payload }) => as((user) => assignments.move(user, path.id, payload)))
      .handle("setQuota", ({ path, payload }) => as((user) => assignments.setQuota(user, path.id, payload)))
      .handle("prioritize", ({ path, payload }) => as((user) => assignments.prioritize(user, path.id, payload)))
      .handle("queue", ({ path, payload, urlParams }) => as((user) => queues.page(user, path.id, payload, urlParams)))
      .handle("release", ({ path }) => as((user) => queues.release(user, path.id)))
  })).pipe(Layer.provide([Assignments.Default, Queues.Default]))

/** `GET /api/v1/jobs/{id}` through the typed client. */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { JobQueue } from "../../src/services/jobs/JobQueue.js"
import { expectFailure, FORBIDDEN } from "../support/expect.js"
import { userWith, workspace } from "../support/fixtures.js"
import { ownerClient, raw } from "../support/server.js"
import { testSettings } from "./support/backends.js"
import { serverSetups, serverWithJobSettings } from "./support/serverSetups.js"

/** A job in the server's queue (this server runs no workers, so it stays queued). */
const enqueued = Effect.flatMap(JobQueue, (queue) => queue.enqueue("default", "test.noop", { hello: "world" })).pipe(
  Effect.provide(JobQueue.Default)
)


for (const [name, dialect, env] of serverSetups) {
  describe(name, () => {
    // The server and the test's own queue share settings: on Redis, a prefix of their own (removed afterwards).
    const settings = testSettings()
    // No workers in the server: the jobs enqueued here must stay as they are while the test reads them.
    const server = serverWithJobSettings(dialect, { ...env, GLOSS_JOB_WORKERS: "0" }, settings)
    layer(server, { excludeTestServices: true, timeout: 60_000 })("jobs API", (it) => {
      it.effect("owner and admin read a job's status (200 {id, status})", () =>
        Effect.gen(function*() {
          const id = yield* enqueued
          const owner = yield* ownerClient
          expect(yield* owner.jobs.get({ path: { id } })).toEqual({ id, status: "queued" })
          // Admins of any workspace, or of none.
          const { client: admin } = yield* userWith("admin")
          expect(yield* admin.jobs.get({ path: { id } })).toEqual({ id, status: "queued" })
          const { user } = yield* userWith("admin", [yield* workspace()])
          const response = yield* raw(`/api/v1/jobs/${id}`, { headers: { "x-gloss-api-key": user.api_key } })
          expect(response.status).toBe(200)
          expect(response.body).toEqual({ id, status: "queued" })
        }))

      it.effect("an annotator cannot read a job (403)", () =>
        Effect.gen(function*() {
          const id = yield* enqueued
          const { client, user } = yield* userWith("annotator", [yield* workspace()])
          yield* expectFailure(client.jobs.get({ path: { id } }), "Forbidden", "Operation not allowed")
          const response = yield* raw(`/api/v1/jobs/${id}`, { headers: { "x-argilla-api-key": user.api_key } })
          expect(response.status).toBe(403)
          expect(response.body).toEqual(FORBIDDEN)
        }))

      it.effect("an unknown id is 404 with the contract's message, for annotators too (looked up first)", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const missing = crypto.randomUUID()
          yield* expectFailure(owner.jobs.get({ path: { id: missing } }), "NotFound", `Job with id \`${missing}\` not found`)
          const { client, user } = yield* userWith("annotator")
          yield* expectFailure(client.jobs.get({ path: { id: missing } }), "NotFound")
          for (const key of [user.api_key, (yield* userWith("admin")).user.api_key]) {
            const response = yield* raw("/api/v1/jobs/not-a-job-id", { headers: { "x-gloss-api-key": key } })
            expect(response.status).toBe(404)
            expect(response.body).toEqual({ detail: "Job with id `not-a-job-id` not found" })
          }
        }))

      it.effect("anonymous callers are 401", () =>
        Effect.gen(function*() {
          const response = yield* raw(`/api/v1/jobs/${crypto.randomUUID()}`)
          expect(response.status).toBe(401)
        }))
    })
  })
}

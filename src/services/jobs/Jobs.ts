import { Effect, Option } from "effect"
import type { User } from "../../domain/User.js"
import type { Job } from "../../domain/Job.js"
import { orNotFound } from "../found.js"
import { Policy } from "../Policy.js"
import { JobQueue } from "./JobQueue.js"

/** Reading a job's status over the API (`GET /api/v1/jobs/{id}`). */
export class Jobs extends Effect.Service<Jobs>()("Gloss/Jobs", {
  effect: Effect.gen(function*() {
    const queue = yield* JobQueue
    const policy = yield* Policy

    // The contract looks the job up before checking the policy: an unknown id is 404 for everyone. Owners and
    // admins read every job; other users the jobs they started (an annotator following the answers they applied).
    const get = Effect.fn("Jobs.get")(function*(actor: User, id: string) {
      const info = yield* queue.lookup(id).pipe(orNotFound("Job", id))
      if (!Option.contains(info.startedBy, actor.id)) yield* policy.require(actor, "jobs.read")
      const job: Job = Option.match(info.progress, {
        onNone: () => ({ id, status: info.status }),
        onSome: (progress) => ({ id, status: info.status, progress })
      })
      return job
    })

    return { get } as const
  }),
  dependencies: [JobQueue.Default, Policy.Default]
}) {}

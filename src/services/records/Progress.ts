import { SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { DatasetId, UserId } from "../../domain/Ids.js"
import type { UserProgress } from "../../domain/Progress.js"
import type { User } from "../../domain/User.js"
import { DbInt } from "../../codecs/columns.js"
import { Database } from "../database/Database.js"
import { Datasets } from "../datasets/Datasets.js"
import { Policy } from "../Policy.js"

const Counted = Schema.Struct({ username: Schema.String, record_status: Schema.String, response_status: Schema.String, n: DbInt })

/** Progress of a dataset and of the people annotating it (`GET /datasets/{id}/progress`), counted in the database. */
export class Progress extends Effect.Service<Progress>()("Gloss/Progress", {
  effect: Effect.gen(function*() {
    const { sql } = yield* Database
    const datasets = yield* Datasets
    const policy = yield* Policy

    const byRecordStatus = SqlSchema.findAll({
      Request: DatasetId,
      Result: Schema.Struct({ status: Schema.String, n: DbInt }),
      execute: (id) => sql`select status, count(*) as n from records where dataset_id = ${id} group by status`
    })
    const byUser = SqlSchema.findAll({
      Request: DatasetId,
      Result: Counted,
      execute: (id) =>
        sql`select u.username, rec.status as record_status, r.status as response_status, count(*) as n
            from responses r join records rec on rec.id = r.record_id join users u on u.id = r.user_id
            where rec.dataset_id = ${id} group by u.username, rec.status, r.status`
    })
    const participants = SqlSchema.findAll({
      Request: DatasetId,
      Result: Schema.Struct({ username: Schema.String }),
      execute: (id) =>
        sql`select u.username from datasets_users du join users u on u.id = du.user_id
            where du.dataset_id = ${id} order by du.inserted_at, u.username`
    })
    const mine = SqlSchema.findAll({
      Request: Schema.Struct({ datasetId: DatasetId, userId: UserId }),
      Result: Schema.Struct({ status: Schema.String, n: DbInt }),
      execute: ({ datasetId, userId }) =>
        sql`select r.status, count(*) as n from responses r join records rec on rec.id = r.record_id
            where rec.dataset_id = ${datasetId} and r.user_id = ${userId} group by r.status`
    })

    const users = (id: DatasetId) =>
      Effect.gen(function*() {
        const counted = yield* byUser(id)
        const people = new Map<string, UserProgress>()
        const blank = (username: string): UserProgress => ({
          username,
          completed: { submitted: 0, discarded: 0, draft: 0 },
          pending: { submitted: 0, discarded: 0, draft: 0 }
        })
        for (const { username } of yield* participants(id)) people.set(username, blank(username))
        for (const row of counted) {
          const person = people.get(row.username) ?? blank(row.username)
          const group = row.record_status === "completed" ? "completed" : "pending"
          const status = row.response_status
          if (status === "submitted" || status === "discarded" || status === "draft") {
            people.set(row.username, { ...person, [group]: { ...person[group], [status]: row.n } })
          }
        }
        return [...people.values()]
      }).pipe(Effect.orDie)

    /** Everyone's progress for those who may see it (owners, member admins); the caller's own for the others. */
    const dataset = Effect.fn("Progress.dataset")(function*(actor: User, id: DatasetId) {
      const { workspace_id } = yield* datasets.access(actor, id, "datasets.read")
      const counts = new Map((yield* byRecordStatus(id).pipe(Effect.orDie)).map((row) => [row.status, row.n]))
      const completed = counts.get("completed") ?? 0
      const pending = counts.get("pending") ?? 0
      const people = yield* users(id)
      const shown = (yield* policy.can(actor, "progress.others", workspace_id))
        ? people
        : people.filter((person) => person.username === actor.username)
      return { total: completed + pending, completed, pending, users: shown }
    })

    const perUser = Effect.fn("Progress.users")(function*(actor: User, id: DatasetId) {
      yield* datasets.access(actor, id, "progress.others")
      return { users: yield* users(id) }
    })

    const metrics = Effect.fn("Progress.metrics")(function*(actor: User, id: DatasetId) {
      yield* datasets.access(actor, id, "datasets.read")
      const [records, responses] = yield* Effect.all([
        byRecordStatus(id),
        mine({ datasetId: id, userId: actor.id })
      ]).pipe(Effect.orDie)
      const total = records.reduce((sum, row) => sum + row.n, 0)
      const count = (status: string) => responses.find((row) => row.status === status)?.n ?? 0
      const submitted = count("submitted")
      const discarded = count("discarded")
      const draft = count("draft")
      return { responses: { total, submitted, discarded, draft, pending: total - submitted - discarded - draft } }
    })

    return { dataset, users: perUser, metrics } as const
  }),
  dependencies: [Datasets.Default, Policy.Default, Database.Default]
}) {}

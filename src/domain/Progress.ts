import { Schema } from "effect"

const ByResponseStatus = Schema.Struct({ submitted: Schema.Int, discarded: Schema.Int, draft: Schema.Int })

/** One annotator's responses, split by the status of the record (completed or pending) and then of the response. */
export const UserProgress = Schema.Struct({
  username: Schema.String,
  completed: ByResponseStatus,
  pending: ByResponseStatus
}).annotations({ identifier: "UserProgress" })
export type UserProgress = typeof UserProgress.Type

export const DatasetProgress = Schema.Struct({
  total: Schema.Int,
  completed: Schema.Int,
  pending: Schema.Int,
  users: Schema.Array(UserProgress)
}).annotations({ identifier: "DatasetProgress" })

export const UsersProgress = Schema.Struct({ users: Schema.Array(UserProgress) }).annotations({
  identifier: "UsersProgress"
})

/** The caller's own work on a dataset: `pending` is the records they have not answered at all. */
export const MyMetrics = Schema.Struct({
  responses: Schema.Struct({
    total: Schema.Int,
    submitted: Schema.Int,
    discarded: Schema.Int,
    draft: Schema.Int,
    pending: Schema.Int
  })
}).annotations({ identifier: "MyMetrics" })

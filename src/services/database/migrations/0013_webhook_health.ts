import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Placeholder: filled by the change that owns this migration. */
export default Effect.gen(function*() {
  yield* SqlClient.SqlClient
})

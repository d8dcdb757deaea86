import { Schema } from "effect"

/** One dependency's state: `ok`, or `down` with what went wrong (no secrets, no stack). */
export const DependencyHealth = Schema.Struct({ status: Schema.Literal("ok", "down"), detail: Schema.optional(Schema.String) })

export const Liveness = Schema.Struct({ status: Schema.Literal("ok") }).annotations({ identifier: "Liveness" })

export const Readiness = Schema.Struct({
  status: Schema.Literal("ok", "down"),
  database: DependencyHealth,
  search_engine: DependencyHealth,
  job_queue: DependencyHealth
}).annotations({ identifier: "Readiness" })
export type Readiness = typeof Readiness.Type

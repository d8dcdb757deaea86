import { Schema } from "effect"
import { JsonObject } from "./Common.js"

export const Version = Schema.Struct({ version: Schema.String }).annotations({ identifier: "Version" })

export const Status = Schema.Struct({
  version: Schema.String,
  /** The search engine's own description of itself (Elasticsearch's root document, or the built-in engine's). */
  search_engine: JsonObject,
  /** Process memory counters as human strings (`"134M"`), as Argilla renders them. */
  memory: Schema.Record({ key: Schema.String, value: Schema.String })
}).annotations({ identifier: "Status" })

/** `GET /settings`: what the web UI reads anonymously. The `argilla` key is kept for wire compatibility. */
export const Settings = Schema.Struct({
  argilla: Schema.Struct({
    share_your_progress_enabled: Schema.Boolean,
    show_huggingface_space_persistent_storage_warning: Schema.optional(Schema.Boolean)
  }),
  huggingface: Schema.optional(Schema.Struct({
    space_id: Schema.String,
    space_title: Schema.NullOr(Schema.String),
    space_subdomain: Schema.NullOr(Schema.String),
    space_host: Schema.NullOr(Schema.String),
    space_repo_name: Schema.NullOr(Schema.String),
    space_author_name: Schema.NullOr(Schema.String),
    space_persistent_storage_enabled: Schema.Boolean
  }))
}).annotations({ identifier: "Settings" })
export type Settings = typeof Settings.Type

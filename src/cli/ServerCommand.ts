import { Command } from "@effect/cli"
import { Layer } from "effect"
import { NodeServerLive } from "../App.js"
import { GlossConfig } from "../Config.js"

export const serverCommand = Command.make(
  "server",
  {},
  () => Layer.launch(NodeServerLive.pipe(Layer.provide(GlossConfig.layer)))
).pipe(
  Command.withDescription(
    "Run the Gloss server (the default of `npm start`). Configuration comes from GLOSS_* environment variables; " +
      "with none set it serves on http://0.0.0.0:6900 with SQLite at ~/.gloss/gloss.db, the built-in search engine " +
      "and the embedded job queue. GLOSS_SEARCH_ENGINE unset selects elasticsearch when GLOSS_ELASTICSEARCH is " +
      "set, else the built-in engine; GLOSS_REDIS_URL selects Redis for background jobs."
  )
)

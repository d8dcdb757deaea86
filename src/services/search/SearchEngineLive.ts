import { Effect, Layer } from "effect"
import { GlossConfig } from "../../Config.js"
import { DatabaseEngineLive } from "./database/DatabaseEngine.js"

/** The engine `GLOSS_SEARCH_ENGINE` selects (DESIGN.md: unset → elasticsearch when `GLOSS_ELASTICSEARCH` is set). */
export const SearchEngineLive = Layer.unwrapEffect(
  Effect.map(GlossConfig, ({ search }) => {
    switch (search.engine) {
      case "database":
        return DatabaseEngineLive
      case "elasticsearch":
      case "opensearch":
        return Layer.die(new Error(`The ${search.engine} engine is not available in this build`))
    }
  })
)

import { Effect, Layer } from "effect"
import { GlossConfig } from "../../Config.js"
import { DatabaseEngineLive } from "./database/DatabaseEngine.js"
import { ElasticsearchEngineLive, OpenSearchEngineLive } from "./elastic/engine.js"
import type { EngineUnavailable } from "./elastic/errors.js"
import type { SearchEngine } from "./SearchEngine.js"
import type { Database } from "../database/Database.js"

/**
 * The engine `GLOSS_SEARCH_ENGINE` selects (unset: elasticsearch when `GLOSS_ELASTICSEARCH` is set,
 * else the built-in one). A cluster that is unreachable or older than its minimum version stops start-up.
 */
export const SearchEngineLive: Layer.Layer<SearchEngine, EngineUnavailable, GlossConfig | Database> = Layer.unwrapEffect(
  Effect.map(GlossConfig, ({ search }): Layer.Layer<SearchEngine, EngineUnavailable, GlossConfig | Database> => {
    switch (search.engine) {
      case "database":
        return DatabaseEngineLive
      case "elasticsearch":
        return ElasticsearchEngineLive
      case "opensearch":
        return OpenSearchEngineLive
    }
  })
)

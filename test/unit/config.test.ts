import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option, Redacted } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { configErrorLines, formatConfigError } from "../../src/config/errors.js"

const load = (env: Record<string, string>) =>
  GlossConfig.load.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))

describe("GlossConfig", () => {
  it.effect("defaults: port 6900, SQLite in ~/.gloss, built-in search, embedded queue, docs on, no CORS", () =>
    Effect.gen(function*() {
      const config = yield* load({})
      expect(config.server).toMatchObject({ port: 6900, host: "0.0.0.0", baseUrl: "", docsEnabled: true, maxBodyMegabytes: 64 })
      expect(Option.isNone(config.server.corsOrigins)).toBe(true)
      expect(config.home).toBe(path.join(os.homedir(), ".gloss"))
      expect(config.database).toEqual({ _tag: "Sqlite", filename: path.join(os.homedir(), ".gloss", "gloss.db"), timeoutSeconds: 15 })
      expect(config.search.engine).toBe("database")
      expect(Redacted.value(config.search.url)).toBe("http://localhost:9200")
      expect(config.search).toMatchObject({ sslVerify: true, shards: 1, replicas: 0 })
      expect(Option.isNone(config.redis.url)).toBe(true)
      expect(config.limits).toEqual({
        labelSelectionOptionsMaxItems: 500,
        spanOptionsMaxItems: 500,
        minMessageLength: 1,
        maxMessageLength: 20000,
        minRoleLength: 1,
        maxRoleLength: 20
      })
      expect(config.auth.tokenExpirationSeconds).toBe(86400)
      // Unset: .oauth.yml, then .oauth.yaml, in the working directory (services/oauth/settings.ts).
      expect(config.auth.oauthConfigPath).toEqual(Option.none())
      expect(config.hub).toEqual({ endpoint: "https://huggingface.co", token: Option.none(), telemetryEnabled: true, offline: false })
      expect(config.features).toEqual({ shareYourProgress: false, showSpaceStorageWarning: true })
      expect(config.container).toEqual({ reindexDatasets: false, appModule: Option.none() })
    }))

  it.effect("reads every variable, Python-style booleans included", () =>
    Effect.gen(function*() {
      const config = yield* load({
        GLOSS_HOME_PATH: "/srv/gloss",
        GLOSS_PORT: "8080",
        GLOSS_BASE_URL: "/annotate/",
        GLOSS_CORS_ORIGINS: "[\"https://a.example.com\", \"https://*.b.dev\"]",
        GLOSS_DOCS_ENABLED: "False",
        GLOSS_DATABASE_URL: "postgresql+asyncpg://u:p@db:5432/gloss",
        GLOSS_DATABASE_POSTGRESQL_POOL_SIZE: "5",
        GLOSS_DATABASE_POSTGRESQL_MAX_OVERFLOW: "0",
        GLOSS_ELASTICSEARCH: "https://es.internal:9200",
        GLOSS_ELASTICSEARCH_SSL_VERIFY: "0",
        GLOSS_ES_RECORDS_INDEX_SHARDS: "3",
        GLOSS_REDIS_URL: "redis://cache:6379/1",
        GLOSS_REDIS_USE_CLUSTER: "yes",
        GLOSS_LABEL_SELECTION_OPTIONS_MAX_ITEMS: "1000",
        GLOSS_ENABLE_SHARE_YOUR_PROGRESS: "TRUE",
        HF_HUB_OFFLINE: "1",
        SPACE_ID: "org/space",
        REINDEX_DATASETS: "1",
        USERNAME: "admin",
        PASSWORD: "secret-password",
        API_KEY: "admin.apikey",
        WORKSPACE: "team",
        GLOSS_AUTH_SECRET_KEY: "s3cret"
      })
      expect(config.home).toBe("/srv/gloss")
      expect(config.server).toMatchObject({ port: 8080, baseUrl: "/annotate", docsEnabled: false })
      expect(config.server.corsOrigins).toEqual(Option.some(["https://a.example.com", "https://*.b.dev"]))
      expect(config.database._tag).toBe("Postgres")
      if (config.database._tag === "Postgres") {
        expect(Redacted.value(config.database.url)).toBe("postgres://u:p@db:5432/gloss")
        expect(config.database).toMatchObject({ poolSize: 5, maxOverflow: 0 })
        expect(String(config.database.url)).toBe("<redacted>")
      }
      // An Elasticsearch URL without GLOSS_SEARCH_ENGINE selects elasticsearch (Argilla's default engine).
      expect(config.search).toMatchObject({ engine: "elasticsearch", sslVerify: false, shards: 3 })
      expect(config.redis.useCluster).toBe(true)
      expect(config.limits.labelSelectionOptionsMaxItems).toBe(1000)
      expect(config.features.shareYourProgress).toBe(true)
      expect(config.hub.telemetryEnabled).toBe(false)
      expect(Option.map(config.space, (s) => s.id)).toEqual(Option.some("org/space"))
      expect(config.container.reindexDatasets).toBe(true)
      expect(Option.map(config.owner.password, Redacted.value)).toEqual(Option.some("secret-password"))
      expect(Option.getOrThrow(config.owner.workspace)).toBe("team")
    }))

  it.effect("sqlite:/// URLs follow SQLAlchemy: three slashes relative to the home, four absolute", () =>
    Effect.gen(function*() {
      const relative = yield* load({ GLOSS_HOME_PATH: "/data", GLOSS_DATABASE_URL: "sqlite:///other.db" })
      expect(relative.database).toMatchObject({ _tag: "Sqlite", filename: "/data/other.db" })
      const absolute = yield* load({ GLOSS_DATABASE_URL: "sqlite+aiosqlite:////var/lib/g.db?check_same_thread=False" })
      expect(absolute.database).toMatchObject({ _tag: "Sqlite", filename: "/var/lib/g.db" })
    }))

  it.effect("an explicit GLOSS_SEARCH_ENGINE wins, and empty values count as unset", () =>
    Effect.gen(function*() {
      const config = yield* load({ GLOSS_SEARCH_ENGINE: "OpenSearch", GLOSS_ELASTICSEARCH: "", USERNAME: "" })
      expect(config.search.engine).toBe("opensearch")
      expect(Option.isNone(config.owner.username)).toBe(true)
    }))

  it.effect("every invalid variable is reported at once, each with what it accepts, and secrets are not echoed", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(load({
        GLOSS_PORT: "abc",
        GLOSS_SEARCH_ENGINE: "solr",
        GLOSS_DOCS_ENABLED: "maybe",
        GLOSS_DATABASE_URL: "mysql://u:hunter2@db/gloss",
        GLOSS_DATABASE_SQLITE_TIMEOUT: "-1",
        GLOSS_REDIS_URL: "http://cache",
        GLOSS_BASE_URL: "/has space",
        GLOSS_CORS_ORIGINS: "not-an-origin",
        PASSWORD: "short",
        WORKSPACE: "Bad Name"
      }))
      const lines = configErrorLines(error)
      expect(lines).toEqual(expect.arrayContaining([
        "GLOSS_PORT: expected an integer from 0 to 65535, got \"abc\"",
        "GLOSS_SEARCH_ENGINE: expected one of database, elasticsearch, opensearch, got \"solr\"",
        "GLOSS_DOCS_ENABLED: expected true or false (also 1/0, yes/no, on/off), got \"maybe\"",
        "GLOSS_DATABASE_SQLITE_TIMEOUT: expected a number from 0 to 3600, got \"-1\"",
        "GLOSS_REDIS_URL: expected a redis:// or rediss:// URL",
        "PASSWORD: the owner password needs at least 8 characters"
      ]))
      expect(lines).toHaveLength(10)
      const message = formatConfigError(error)
      expect(message.split("\n")[0]).toBe("Gloss cannot start: 10 environment variables are invalid.")
      expect(message).not.toContain("hunter2")
      expect(message).not.toContain("short")
      expect(message).not.toMatch(/\n\s+at /)
    }))
})

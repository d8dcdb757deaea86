/**
 * The only module that reads the environment. Everything else receives `GlossConfig` through a layer; tests build
 * one with `GlossConfig.fromRecord({...})`. The variables and their defaults are listed in
 * docs/reference/configuration.md.
 */
import * as os from "node:os"
import * as path from "node:path"
import { Config, ConfigProvider, Context, Effect, Either, Layer, Option, Redacted } from "effect"
import * as V from "./config/values.js"
import { type AllowedHost, parseAllowedHosts } from "./config/hostList.js"

export type DatabaseConfig =
  | { readonly _tag: "Sqlite"; readonly filename: string; readonly timeoutSeconds: number }
  | {
    readonly _tag: "Postgres"
    readonly url: Redacted.Redacted<string>
    readonly poolSize: number
    readonly maxOverflow: number
  }

export type SearchEngineKind = "database" | "elasticsearch" | "opensearch"
export type LogFormat = "text" | "json"
export type LogLevelName = "debug" | "info" | "warning" | "error" | "none"

export interface SpaceInfo {
  readonly id: string
  readonly title: Option.Option<string>
  readonly subdomain: Option.Option<string>
  readonly host: Option.Option<string>
  readonly repoName: Option.Option<string>
  readonly authorName: Option.Option<string>
  readonly persistentStorageEnabled: boolean
}

const NAME_PATTERN = /^(?![-_])[a-z0-9_-]+$/

/** `sqlite:///relative.db`, `sqlite:////absolute.db` (SQLAlchemy's convention), `postgres(ql)://…`. */
const parseDatabaseUrl = (home: string) => (raw: string): Either.Either<DatabaseUrl, string> => {
  const pg = /^postgres(?:ql)?(?:\+(?:asyncpg|psycopg2?))?:\/\//.exec(raw)
  if (pg) return Either.right({ _tag: "Postgres", url: Redacted.make(`postgres://${raw.slice(pg[0].length)}`) })
  const lite = /^sqlite(?:\+aiosqlite)?:\/\/\//.exec(raw)
  if (lite) {
    const file = raw.slice(lite[0].length).split("?")[0] ?? ""
    if (file === "") return Either.left("a sqlite:/// URL needs a file path, e.g. sqlite:////var/lib/gloss/gloss.db")
    return Either.right({ _tag: "Sqlite", filename: file === ":memory:" ? file : path.resolve(home, file) })
  }
  return Either.left("expected postgresql://user:password@host:port/db, postgres://… or sqlite:///path/to/file.db")
}
type DatabaseUrl = { readonly _tag: "Sqlite"; readonly filename: string } | {
  readonly _tag: "Postgres"
  readonly url: Redacted.Redacted<string>
}

/** `/`, `/prefix`, `/prefix/` and `prefix` all mean the same; the stored form is `""` or `/prefix`. */
const parseBaseUrl = (raw: string): Either.Either<string, string> => {
  const trimmed = raw.replace(/^\/+|\/+$/g, "")
  if (trimmed === "") return Either.right("")
  return /^[A-Za-z0-9._~\-/]+$/.test(trimmed) && !trimmed.includes("//")
    ? Either.right(`/${trimmed}`)
    : Either.left(`expected a URL path such as /gloss, got ${JSON.stringify(raw)}`)
}

/** A JSON list (`["https://a.com"]`, as Argilla takes it) or a comma-separated list; `*` wildcards allowed. */
const parseOrigins = (raw: string): Either.Either<ReadonlyArray<string>, string> => {
  let items: ReadonlyArray<unknown>
  if (raw.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(raw)
      if (!Array.isArray(parsed)) return Either.left("expected a JSON list of origins")
      items = parsed
    } catch {
      return Either.left("expected a JSON list of origins or a comma-separated list")
    }
  } else items = raw.split(",")
  const origins = items.map((item) => String(item).trim()).filter((item) => item !== "")
  const bad = origins.find((o) => o !== "*" && !/^https?:\/\/[^/\s]+$/.test(o))
  return bad === undefined
    ? Either.right(origins)
    : Either.left(`expected origins like https://app.example.com or https://*.example.com, got ${JSON.stringify(bad)}`)
}

const parseRedisUrl = (raw: string): Either.Either<Redacted.Redacted<string>, string> =>
  /^rediss?:\/\/./.test(raw) ? Either.right(Redacted.make(raw)) : Either.left("expected a redis:// or rediss:// URL")

// Inside a `{hash tag}` in every key, so no braces; short and printable, as it is part of each key's name.
const parseRedisPrefix = (raw: string): Either.Either<string, string> =>
  /^[A-Za-z0-9._:-]{1,64}$/.test(raw) ? Either.right(raw) : Either.left("expected 1 to 64 letters, digits, '.', '_', ':' or '-'")

const parseSecretUrl = (raw: string) => Either.map(V.httpUrl(raw), (url) => Redacted.make(url.href.replace(/\/$/, "")))

const minLength = (min: number, what: string) => (raw: string): Either.Either<Redacted.Redacted<string>, string> =>
  raw.length >= min ? Either.right(Redacted.make(raw)) : Either.left(`${what} needs at least ${min} characters`)

const workspaceName = (raw: string): Either.Either<string, string> =>
  NAME_PATTERN.test(raw) && raw.length <= 200
    ? Either.right(raw)
    : Either.left(`expected lowercase letters, digits, - and _ (not first), got ${JSON.stringify(raw)}`)

const config = Effect.gen(function*() {
  const home = yield* V.string("GLOSS_HOME_PATH", path.join(os.homedir(), ".gloss")).pipe(
    Config.map((p) => path.resolve(p.replace(/^~(?=$|\/)/, os.homedir())))
  )
  const values = yield* Config.all({
    server: Config.all({
      host: V.string("GLOSS_HOST", "0.0.0.0"),
      port: V.integer("GLOSS_PORT", 6900, { min: 0, max: 65535 }),
      baseUrl: V.parseWith("GLOSS_BASE_URL", parseBaseUrl).pipe(Config.map(Option.getOrElse(() => ""))),
      corsOrigins: V.parseWith("GLOSS_CORS_ORIGINS", parseOrigins),
      docsEnabled: V.boolean("GLOSS_DOCS_ENABLED", true),
      maxBodyMegabytes: V.integer("GLOSS_MAX_REQUEST_BODY_MB", 64, { min: 1, max: 4096 }),
      logLevel: V.literal("GLOSS_LOG_LEVEL", ["debug", "info", "warning", "error", "none"] as const).pipe(
        Config.map(Option.getOrElse((): LogLevelName => "info"))
      ),
      logFormat: V.literal("GLOSS_LOG_FORMAT", ["text", "json"] as const).pipe(
        Config.map(Option.getOrElse((): LogFormat => "text"))
      )
    }),
    databaseUrl: V.parseWith("GLOSS_DATABASE_URL", parseDatabaseUrl(home)),
    sqliteTimeoutSeconds: V.number("GLOSS_DATABASE_SQLITE_TIMEOUT", 15, { min: 0, max: 3600 }),
    poolSize: V.integer("GLOSS_DATABASE_POSTGRESQL_POOL_SIZE", 15, { min: 1, max: 1000 }),
    maxOverflow: V.integer("GLOSS_DATABASE_POSTGRESQL_MAX_OVERFLOW", 10, { min: 0, max: 1000 }),
    auth: Config.all({
      secretKey: V.optionalSecret("GLOSS_AUTH_SECRET_KEY"),
      tokenExpirationSeconds: V.integer("GLOSS_AUTH_TOKEN_EXPIRATION", 86_400, { min: 1, max: 31_536_000 }),
      cacheSeconds: V.number("GLOSS_AUTH_CACHE_SECONDS", 2, { min: 0, max: 300 }),
      // bcrypt's cost (2^n rounds) for new password hashes; below 4 bcrypt refuses, above 15 a sign-in takes seconds.
      passwordHashRounds: V.integer("GLOSS_AUTH_PASSWORD_HASH_ROUNDS", 10, { min: 4, max: 15 }),
      // Failed sign-ins (`POST /token`) allowed per username and per client address in a window; 0 turns one off.
      signIn: Config.all({
        maxFailuresPerUser: V.integer("GLOSS_AUTH_SIGNIN_MAX_FAILURES_PER_USER", 10, { min: 0, max: 1_000_000 }),
        maxFailuresPerAddress: V.integer("GLOSS_AUTH_SIGNIN_MAX_FAILURES_PER_ADDRESS", 50, { min: 0, max: 1_000_000 }),
        windowSeconds: V.integer("GLOSS_AUTH_SIGNIN_WINDOW_SECONDS", 900, { min: 1, max: 86_400 }),
        // Behind one reverse proxy: the client is the last address of X-Forwarded-For, not the socket's peer.
        trustProxy: V.boolean("GLOSS_TRUST_PROXY", false)
      }),
      // Unset: `.oauth.yml` in the working directory (the documented default), else `.oauth.yaml` (Argilla's name).
      oauthConfigPath: V.optionalString("GLOSS_AUTH_OAUTH_CFG"),
      // Hugging Face client credentials when the file has none: ours, then the ones a Space with `hf_oauth` injects.
      huggingface: Config.all({
        clientId: V.optionalString("OAUTH2_HUGGINGFACE_CLIENT_ID"),
        clientSecret: V.optionalSecret("OAUTH2_HUGGINGFACE_CLIENT_SECRET"),
        scope: V.optionalString("OAUTH2_HUGGINGFACE_SCOPE"),
        spaceClientId: V.optionalString("OAUTH_CLIENT_ID"),
        spaceClientSecret: V.optionalSecret("OAUTH_CLIENT_SECRET"),
        spaceScopes: V.optionalString("OAUTH_SCOPES")
      })
    }),
    owner: Config.all({
      username: V.optionalString("USERNAME"),
      password: V.secretWith("PASSWORD", minLength(8, "the owner password")),
      apiKey: V.secretWith("API_KEY", minLength(8, "the owner API key")),
      workspace: V.parseWith("WORKSPACE", workspaceName)
    }),
    elasticsearchUrl: V.parseWith("GLOSS_ELASTICSEARCH", parseSecretUrl),
    searchEngine: V.literal("GLOSS_SEARCH_ENGINE", ["database", "elasticsearch", "opensearch"] as const),
    elasticsearch: Config.all({
      sslVerify: V.boolean("GLOSS_ELASTICSEARCH_SSL_VERIFY", true),
      caPath: V.optionalString("GLOSS_ELASTICSEARCH_CA_PATH"),
      shards: V.integer("GLOSS_ES_RECORDS_INDEX_SHARDS", 1, { min: 1, max: 1024 }),
      replicas: V.integer("GLOSS_ES_RECORDS_INDEX_REPLICAS", 0, { min: 0, max: 64 })
    }),
    // The built-in engine: vector settings with this many vectors or more are searched through an ANN index; unset,
    // the number follows the vectors' dimensions (vectors/annThreshold.ts).
    vectorAnnFrom: V.optionalInteger("GLOSS_VECTOR_ANN_FROM", { min: 1, max: 1_000_000_000 }),
    // The built-in engine: a text search ranks by relevance the first this many matches that pass its filters; 0 ranks
    // every match.
    rankWindow: V.integer("GLOSS_SEARCH_RANK_WINDOW", 10_000, { min: 0, max: 1_000_000_000 }),
    // The built-in engine: a search counts its matches exactly up to this many, a lower bound past it; 0 counts all.
    trackTotalHits: V.integer("GLOSS_SEARCH_TRACK_TOTAL_HITS", 10_000, { min: 0, max: 1_000_000_000 }),
    // Every engine: a search still running after this many seconds is stopped and answered with a 503.
    searchTimeoutSeconds: V.number("GLOSS_SEARCH_TIMEOUT_SECONDS", 15, { min: 0.001, max: 3600 }),
    redis: Config.all({
      url: V.parseWith("GLOSS_REDIS_URL", parseRedisUrl),
      useCluster: V.boolean("GLOSS_REDIS_USE_CLUSTER", false),
      // Unset: `gloss`, or what the job settings in context say (tests give each suite its own).
      prefix: V.parseWith("GLOSS_REDIS_PREFIX", parseRedisPrefix)
    }),
    jobWorkers: V.integer("GLOSS_JOB_WORKERS", 2, { min: 0, max: 64 }),
    // Internal destinations webhooks may post to (else loopback, private, link-local… are refused).
    webhooksAllowedHosts: V.parseWith("GLOSS_WEBHOOKS_ALLOWED_HOSTS", parseAllowedHosts).pipe(
      Config.map(Option.getOrElse((): ReadonlyArray<AllowedHost> => []))
    ),
    limits: Config.all({
      labelSelectionOptionsMaxItems: V.integer("GLOSS_LABEL_SELECTION_OPTIONS_MAX_ITEMS", 500, { min: 2, max: 100_000 }),
      spanOptionsMaxItems: V.integer("GLOSS_SPAN_OPTIONS_MAX_ITEMS", 500, { min: 1, max: 100_000 }),
      minMessageLength: V.integer("GLOSS_MIN_MESSAGE_LENGTH", 1, { min: 0, max: 1_000_000 }),
      maxMessageLength: V.integer("GLOSS_MAX_MESSAGE_LENGTH", 20_000, { min: 1, max: 10_000_000 }),
      minRoleLength: V.integer("GLOSS_MIN_ROLE_LENGTH", 1, { min: 0, max: 1000 }),
      maxRoleLength: V.integer("GLOSS_MAX_ROLE_LENGTH", 20, { min: 1, max: 1000 })
    }),
    shareYourProgress: V.boolean("GLOSS_ENABLE_SHARE_YOUR_PROGRESS", false),
    showSpaceStorageWarning: V.boolean("GLOSS_SHOW_HUGGINGFACE_SPACE_PERSISTENT_STORAGE_WARNING", true),
    hub: Config.all({
      endpoint: V.parseWith("HF_ENDPOINT", V.httpUrl).pipe(
        Config.map(Option.match({ onNone: () => "https://huggingface.co", onSome: (u) => u.href.replace(/\/$/, "") }))
      ),
      // Read by the Hub import job for private or gated datasets (the export job takes the request's token).
      token: V.optionalSecret("HF_TOKEN"),
      disableTelemetry: V.boolean("HF_HUB_DISABLE_TELEMETRY", false),
      offline: V.boolean("HF_HUB_OFFLINE", false)
    }),
    space: Config.all({
      id: V.optionalString("SPACE_ID"),
      title: V.optionalString("SPACE_TITLE"),
      subdomain: V.optionalString("SPACE_SUBDOMAIN"),
      host: V.optionalString("SPACE_HOST"),
      repoName: V.optionalString("SPACE_REPO_NAME"),
      authorName: V.optionalString("SPACE_AUTHOR_NAME"),
      persistentStorageEnabled: V.boolean("PERSISTANT_STORAGE_ENABLED", false)
    }),
    tracing: Config.all({
      endpoint: V.parseWith("OTEL_EXPORTER_OTLP_ENDPOINT", V.httpUrl),
      tracesEndpoint: V.parseWith("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", V.httpUrl),
      serviceName: V.string("OTEL_SERVICE_NAME", "gloss"),
      exportDelayMillis: V.integer("OTEL_BSP_SCHEDULE_DELAY", 5000, { min: 10, max: 600_000 })
    }),
    container: Config.all({
      reindexDatasets: V.boolean("REINDEX_DATASETS", false),
      appModule: V.optionalString("GLOSS_APP_MODULE")
    })
  })

  const database: DatabaseConfig = Option.match(values.databaseUrl, {
    onNone: (): DatabaseConfig => ({
      _tag: "Sqlite",
      filename: path.join(home, "gloss.db"),
      timeoutSeconds: values.sqliteTimeoutSeconds
    }),
    onSome: (url): DatabaseConfig =>
      url._tag === "Sqlite"
        ? { ...url, timeoutSeconds: values.sqliteTimeoutSeconds }
        : { ...url, poolSize: values.poolSize, maxOverflow: values.maxOverflow }
  })
  // Unset engine → elasticsearch when a cluster URL is given (as Argilla, which needs a cluster), else built in.
  const searchEngine: SearchEngineKind = Option.getOrElse(
    values.searchEngine,
    () => Option.isSome(values.elasticsearchUrl) ? "elasticsearch" : "database"
  )
  const space: Option.Option<SpaceInfo> = Option.map(values.space.id, (id) => ({ ...values.space, id }))
  return {
    home,
    server: values.server,
    database,
    auth: values.auth,
    owner: values.owner,
    search: {
      engine: searchEngine,
      url: Option.getOrElse(values.elasticsearchUrl, () => Redacted.make("http://localhost:9200")),
      ...values.elasticsearch,
      vectorAnnFrom: values.vectorAnnFrom,
      rankWindow: values.rankWindow,
      trackTotalHits: values.trackTotalHits,
      timeoutSeconds: values.searchTimeoutSeconds
    },
    redis: values.redis,
    jobs: { workers: values.jobWorkers },
    webhooks: { allowedHosts: values.webhooksAllowedHosts },
    limits: values.limits,
    features: { shareYourProgress: values.shareYourProgress, showSpaceStorageWarning: values.showSpaceStorageWarning },
    hub: {
      endpoint: values.hub.endpoint,
      token: values.hub.token,
      telemetryEnabled: !values.hub.disableTelemetry && !values.hub.offline,
      offline: values.hub.offline
    },
    space,
    // Spans are exported only when an OTLP endpoint is configured (OpenTelemetry's own variable names).
    tracing: Option.map(
      Option.orElse(values.tracing.tracesEndpoint, () =>
        Option.map(values.tracing.endpoint, (url) => new URL(`${url.href.replace(/\/$/, "")}/v1/traces`))),
      (url) => ({ url: url.href, serviceName: values.tracing.serviceName, exportDelayMillis: values.tracing.exportDelayMillis })
    ),
    container: values.container
  }
})

export type GlossConfigShape = Effect.Effect.Success<typeof config>

export class GlossConfig extends Context.Tag("GlossConfig")<GlossConfig, GlossConfigShape>() {
  /** Reads the current ConfigProvider (the process environment unless a test sets another). */
  static readonly layer = Layer.effect(GlossConfig, config)

  static readonly load = config

  /** For tests and tools: the configuration a given environment would produce. */
  static readonly fromRecord = (env: Record<string, string>) =>
    GlossConfig.layer.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))
}

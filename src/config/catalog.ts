/**
 * Every environment variable Gloss reads, with its default, what it accepts and what it means. The configuration
 * reference page (`docs/reference/configuration.md`) is written from this list by `npm run docs:reference`.
 *
 * It cannot drift from the code: `test/unit/docs-reference.test.ts` loads `GlossConfig` through a provider that
 * records every key asked for and compares that set with the `server` entries here; it scans `src/` for every other
 * reader (`envString`, `Config.*`, `process.env`) and compares those with the `client` entries; it sets each stated
 * default and checks the configuration comes out the same as when the variable is unset; and it checks each stated
 * range, list of values and boolean against what `GlossConfig` accepts and refuses.
 */

export type Accepts =
  | { readonly kind: "integer"; readonly min: number; readonly max: number }
  | { readonly kind: "number"; readonly min: number; readonly max: number }
  | { readonly kind: "boolean" }
  | { readonly kind: "oneOf"; readonly values: ReadonlyArray<string> }
  | { readonly kind: "text"; readonly text: string }

/** `value`: setting the variable to it changes nothing (checked); `text`: what happens when it is unset, in words. */
export type Default =
  | { readonly kind: "value"; readonly value: string }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "unset" }

export type GroupId =
  | "server"
  | "database"
  | "auth"
  | "owner"
  | "search"
  | "jobs"
  | "webhooks"
  | "limits"
  | "telemetry"
  | "huggingface"
  | "container"
  | "client"

export interface Variable {
  readonly name: string
  readonly group: GroupId
  /** `server`: part of `GlossConfig` (`src/Config.ts`); `client`: read by the command line or the typed client. */
  readonly reader: "server" | "client"
  readonly default: Default
  readonly accepts: Accepts
  /** One line, Markdown. */
  readonly description: string
}

export const groups: ReadonlyArray<{ readonly id: GroupId; readonly title: string; readonly intro?: string }> = [
  { id: "server", title: "Server" },
  { id: "database", title: "Database" },
  { id: "auth", title: "Authentication and sign-in" },
  {
    id: "owner",
    title: "Owner bootstrap",
    intro: "The first user. With `USERNAME` and `PASSWORD` set, the owner exists after start-up: created once, and " +
      "restarting with other values changes nothing."
  },
  { id: "search", title: "Search" },
  { id: "jobs", title: "Background jobs and Redis" },
  { id: "webhooks", title: "Webhooks" },
  { id: "limits", title: "Limits of questions" },
  {
    id: "telemetry",
    title: "Tracing and telemetry",
    intro: "Gloss uses OpenTelemetry's own variable names; unset, no spans are made or sent."
  },
  { id: "huggingface", title: "Hugging Face" },
  { id: "container", title: "Container" },
  {
    id: "client",
    title: "Command line and client",
    intro: "Read where `gloss login`, `gloss datasets export` and `import`, `gloss deploy` and the typed " +
      "TypeScript client run, not by the server."
  }
]

const unset: Default = { kind: "unset" }
const value = (v: string): Default => ({ kind: "value", value: v })
const text = (t: string): Default => ({ kind: "text", text: t })
const integer = (min: number, max: number): Accepts => ({ kind: "integer", min, max })
const number = (min: number, max: number): Accepts => ({ kind: "number", min, max })
const boolean: Accepts = { kind: "boolean" }
const oneOf = (...values: ReadonlyArray<string>): Accepts => ({ kind: "oneOf", values })
const accepts = (t: string): Accepts => ({ kind: "text", text: t })
const anyText = accepts("text")
const url = accepts("an `http://` or `https://` URL")

const server = (
  group: GroupId,
  name: string,
  def: Default,
  acc: Accepts,
  description: string
): Variable => ({ name, group, reader: "server", default: def, accepts: acc, description })

const client = (name: string, def: Default, acc: Accepts, description: string): Variable => ({
  name,
  group: "client",
  reader: "client",
  default: def,
  accepts: acc,
  description
})

export const variables: ReadonlyArray<Variable> = [
  // server
  server("server", "GLOSS_HOME_PATH", value("~/.gloss"), accepts("a directory path; `~` is the home directory"),
    "Directory for the files Gloss keeps (the SQLite database, the API key sealing key); created if missing."),
  server("server", "GLOSS_HOST", value("0.0.0.0"), accepts("an interface address or host name"),
    "Interface the server listens on."),
  server("server", "GLOSS_PORT", value("6900"), integer(0, 65535), "Port the server listens on; `0` takes any free port."),
  server("server", "GLOSS_BASE_URL", value("/"), accepts("a URL path such as `/gloss`"),
    "Path prefix behind a proxy: with `/gloss` the API is at `/gloss/api/v1/…` and `/api/v1/…` answers 404."),
  server("server", "GLOSS_CORS_ORIGINS", unset,
    accepts("origins, comma-separated or a JSON list; `*` wildcards such as `https://*.example.com`"),
    "Origins allowed cross-origin access; unset, no cross-origin access."),
  server("server", "GLOSS_DOCS_ENABLED", value("true"), boolean,
    "`false` turns `/api/docs` into a 404; `/api/v1/docs` and `/api/v1/openapi.json` stay."),
  server("server", "GLOSS_MAX_REQUEST_BODY_MB", value("64"), integer(1, 4096),
    "Request bodies larger than this many megabytes answer 413."),
  server("server", "GLOSS_LOG_LEVEL", value("info"), oneOf("debug", "info", "warning", "error", "none"),
    "Least severe log line written; `info` includes one access-log line per request."),
  server("server", "GLOSS_LOG_FORMAT", value("text"), oneOf("text", "json"),
    "`json` writes one JSON object per line."),
  server("server", "GLOSS_ENABLE_SHARE_YOUR_PROGRESS", value("false"), boolean,
    "`true`: the public page `/share-your-progress/{dataset id}/{username}` shows that user's progress (else 404)."),
  server("server", "GLOSS_TRUST_PROXY", value("false"), boolean,
    "`true` behind one reverse proxy that appends the client to `X-Forwarded-For`: sign-in failures count against " +
      "that last address instead of the proxy's."),
  // database
  server("database", "GLOSS_DATABASE_URL", text("SQLite at `$GLOSS_HOME_PATH/gloss.db`"),
    accepts("`postgresql://user:pass@host:5432/db`, `postgres://…`, `sqlite:///file.db`, `sqlite:////abs/file.db`"),
    "A PostgreSQL URL selects PostgreSQL; `sqlite:///file.db` (relative to the home) or `sqlite:////abs/file.db` " +
      "another SQLite file."),
  server("database", "GLOSS_DATABASE_SQLITE_TIMEOUT", value("15"), number(0, 3600),
    "SQLite only: seconds a write waits for a table another process holds before the API answers 503."),
  server("database", "GLOSS_DATABASE_POSTGRESQL_POOL_SIZE", value("15"), integer(1, 1000),
    "PostgreSQL only: connections kept open in the pool."),
  server("database", "GLOSS_DATABASE_POSTGRESQL_MAX_OVERFLOW", value("10"), integer(0, 1000),
    "PostgreSQL only: connections allowed above the pool size."),
  // auth
  server("auth", "GLOSS_AUTH_SECRET_KEY", text("random per process"), anyText,
    "Signs sign-in tokens (JWT, HS256) and seals the stored copies of API keys. Unset, tokens die with the process " +
      "and the sealing key is generated once into `api-key-seal.key` under `GLOSS_HOME_PATH`: give every server and " +
      "worker the same value."),
  server("auth", "GLOSS_AUTH_TOKEN_EXPIRATION", value("86400"), integer(1, 31_536_000),
    "Lifetime of a sign-in token, in seconds."),
  server("auth", "GLOSS_AUTH_CACHE_SECONDS", value("2"), number(0, 300),
    "How long a process remembers which user a key or token belongs to (`0`: ask the database every request); a " +
      "deleted user or changed role reaches other servers within this time."),
  server("auth", "GLOSS_AUTH_PASSWORD_HASH_ROUNDS", value("10"), integer(4, 15),
    "bcrypt's cost for new password hashes: 2^n rounds, so each step doubles the time a sign-in spends hashing. " +
      "A hash keeps its own cost, so stored passwords (Argilla's cost-12 hashes too) verify whatever the value."),
  server("auth", "GLOSS_AUTH_SIGNIN_MAX_FAILURES_PER_USER", value("10"), integer(0, 1_000_000),
    "Failed sign-ins (`POST /token`) for one username within the window, after which every attempt for it answers " +
      "429 until the window ends; `0`: no limit."),
  server("auth", "GLOSS_AUTH_SIGNIN_MAX_FAILURES_PER_ADDRESS", value("50"), integer(0, 1_000_000),
    "The same for one client address, whatever the usernames; `0`: no limit."),
  server("auth", "GLOSS_AUTH_SIGNIN_WINDOW_SECONDS", value("900"), integer(1, 86_400),
    "The window of both sign-in limits, in seconds from its first failure."),
  server("auth", "GLOSS_AUTH_OAUTH_CFG", text("`.oauth.yml`, else `.oauth.yaml`, in the working directory"),
    accepts("a file path"), "The OAuth2 configuration file; sign-in through OAuth is on exactly when it exists."),
  server("auth", "OAUTH2_HUGGINGFACE_CLIENT_ID", unset, anyText,
    "Client id of the Hugging Face OAuth app, when the OAuth file has none."),
  server("auth", "OAUTH2_HUGGINGFACE_CLIENT_SECRET", unset, anyText,
    "Client secret of the Hugging Face OAuth app, when the OAuth file has none."),
  server("auth", "OAUTH2_HUGGINGFACE_SCOPE", text("`openid profile`"), accepts("scopes separated by spaces"),
    "Scopes asked of Hugging Face, when the OAuth file has none."),
  server("auth", "OAUTH_CLIENT_ID", unset, anyText,
    "Set by a Hugging Face Space with `hf_oauth`: the client id used when neither the file nor " +
      "`OAUTH2_HUGGINGFACE_CLIENT_ID` gives one."),
  server("auth", "OAUTH_CLIENT_SECRET", unset, anyText,
    "Set by a Hugging Face Space with `hf_oauth`: the matching client secret."),
  server("auth", "OAUTH_SCOPES", unset, accepts("scopes separated by spaces"),
    "Set by a Hugging Face Space with `hf_oauth`: the scopes it granted."),
  // owner
  server("owner", "USERNAME", unset, anyText,
    "The owner's username. With OAuth, `USERNAME` alone names the Hugging Face user who signs in as owner."),
  server("owner", "PASSWORD", unset, accepts("8 or more characters"), "The owner's password."),
  server("owner", "API_KEY", text("random, printed once when the owner is created"), accepts("8 or more characters"),
    "The owner's API key."),
  server("owner", "WORKSPACE", unset, accepts("lowercase letters, digits, `-` and `_` (not first)"),
    "A workspace created at start with the owner as a member. Unset, an owner created from `USERNAME` and " +
      "`PASSWORD` gets the workspace `default`, so a first dataset has somewhere to go."),
  // search
  server("search", "GLOSS_SEARCH_ENGINE", text("`elasticsearch` when `GLOSS_ELASTICSEARCH` is set, else `database`"),
    oneOf("database", "elasticsearch", "opensearch"),
    "`database`: the built-in engine; `elasticsearch` (8.5 or later) or `opensearch` (2.4 or later)."),
  server("search", "GLOSS_ELASTICSEARCH", text("`http://localhost:9200`"), url,
    "URL of the Elasticsearch or OpenSearch cluster; it may carry credentials and is never logged."),
  server("search", "GLOSS_ELASTICSEARCH_SSL_VERIFY", value("true"), boolean,
    "`false` turns off TLS certificate verification towards the search engine."),
  server("search", "GLOSS_ELASTICSEARCH_CA_PATH", unset, accepts("a file path"),
    "CA certificate file of the search engine's host."),
  server("search", "GLOSS_ES_RECORDS_INDEX_SHARDS", value("1"), integer(1, 1024), "Shards of each dataset's index."),
  server("search", "GLOSS_ES_RECORDS_INDEX_REPLICAS", value("0"), integer(0, 64), "Replicas of each dataset's index."),
  server("search", "GLOSS_VECTOR_ANN_FROM", text("by the vectors' size: 20000 at 384 dimensions, 5000 at 1536, at most 200000"),
    integer(1, 1_000_000_000),
    "Built-in engine: vector settings with this many vectors or more are searched through an approximate index; " +
      "fewer, exactly. Unset, the number follows the dimensions: an exact search scans up to 7.68 million numbers " +
      "(vectors × dimensions), and at most 200000 vectors."),
  server("search", "GLOSS_SEARCH_RANK_WINDOW", value("10000"), integer(0, 1_000_000_000),
    "Built-in engine: a text search ranks by relevance the first this many matches that pass its filters; `0` ranks " +
      "every match."),
  server("search", "GLOSS_SEARCH_TRACK_TOTAL_HITS", value("10000"), integer(0, 1_000_000_000),
    "Built-in engine: a search's `total` is exact up to this many matches and a lower bound " +
      "(`total_relation: \"gte\"`) past it; `0` counts every match."),
  server("search", "GLOSS_SEARCH_TIMEOUT_SECONDS", value("15"), number(0.001, 3600),
    "Every engine: a records search still running after this many seconds is stopped and answers 503."),
  // jobs
  server("jobs", "GLOSS_REDIS_URL", text("unset: the embedded queue in the database"),
    accepts("a `redis://` or `rediss://` URL"), "Background jobs go through Redis."),
  server("jobs", "GLOSS_REDIS_USE_CLUSTER", value("false"), boolean, "Treat `GLOSS_REDIS_URL` as a Redis Cluster."),
  server("jobs", "GLOSS_REDIS_PREFIX", text("`gloss`"), accepts("1 to 64 letters, digits, `.`, `_`, `:` or `-`"),
    "The queue's key prefix, written as a hash tag (`{gloss}`) so a queue's keys share one Cluster slot; every " +
      "server and worker of one deployment needs the same."),
  server("jobs", "GLOSS_JOB_WORKERS", value("2"), integer(0, 64),
    "Background jobs run at once inside the server process; `0`: none, run `gloss worker` processes instead."),
  // webhooks
  server("webhooks", "GLOSS_WEBHOOKS_ALLOWED_HOSTS", unset,
    accepts("comma-separated host names, `*.` wildcards, addresses and CIDR ranges"),
    "Internal destinations webhooks may post to; unset, loopback, private, link-local, metadata and other internal " +
      "addresses are refused. Give every server and worker the same value."),
  // limits
  server("limits", "GLOSS_LABEL_SELECTION_OPTIONS_MAX_ITEMS", value("500"), integer(2, 100_000),
    "Most options of a label or multi-label question."),
  server("limits", "GLOSS_SPAN_OPTIONS_MAX_ITEMS", value("500"), integer(1, 100_000), "Most options of a span question."),
  server("limits", "GLOSS_MIN_MESSAGE_LENGTH", value("1"), integer(0, 1_000_000),
    "Shortest content of a chat message."),
  server("limits", "GLOSS_MAX_MESSAGE_LENGTH", value("20000"), integer(1, 10_000_000),
    "Longest content of a chat message."),
  server("limits", "GLOSS_MIN_ROLE_LENGTH", value("1"), integer(0, 1000), "Shortest role of a chat message."),
  server("limits", "GLOSS_MAX_ROLE_LENGTH", value("20"), integer(1, 1000), "Longest role of a chat message."),
  // telemetry
  server("telemetry", "OTEL_EXPORTER_OTLP_ENDPOINT", unset, url,
    "Export traces over OTLP/HTTP (JSON) to `<endpoint>/v1/traces`."),
  server("telemetry", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", unset, url,
    "Export traces to exactly this URL; wins over `OTEL_EXPORTER_OTLP_ENDPOINT`."),
  server("telemetry", "OTEL_SERVICE_NAME", value("gloss"), anyText, "The traces' service name."),
  server("telemetry", "OTEL_BSP_SCHEDULE_DELAY", value("5000"), integer(10, 600_000),
    "Milliseconds between trace exports."),
  server("telemetry", "HF_HUB_DISABLE_TELEMETRY", value("false"), boolean, "`true` turns usage telemetry off."),
  server("telemetry", "HF_HUB_OFFLINE", value("false"), boolean,
    "`true` turns usage telemetry off, as Hugging Face's own tools do offline."),
  // huggingface
  server("huggingface", "HF_ENDPOINT", value("https://huggingface.co"), url,
    "The Hugging Face Hub: telemetry, OAuth, `gloss deploy`, dataset export and import."),
  server("huggingface", "HF_TOKEN", unset, anyText,
    "Hub token: the server's for imports of private or gated datasets, and the default token of `gloss deploy` " +
      "and `gloss datasets export`/`import` with `hub:` targets."),
  server("huggingface", "GLOSS_SHOW_HUGGINGFACE_SPACE_PERSISTENT_STORAGE_WARNING", value("true"), boolean,
    "In a Hugging Face Space, whether the UI warns that persistent storage is off."),
  server("huggingface", "SPACE_ID", unset, anyText,
    "Set by Hugging Face inside a Space; with it, `GET /api/v1/settings` reports the Space."),
  server("huggingface", "SPACE_TITLE", unset, anyText, "Set by Hugging Face inside a Space: its title."),
  server("huggingface", "SPACE_SUBDOMAIN", unset, anyText, "Set by Hugging Face inside a Space: its subdomain."),
  server("huggingface", "SPACE_HOST", unset, anyText, "Set by Hugging Face inside a Space: its host name."),
  server("huggingface", "SPACE_REPO_NAME", unset, anyText, "Set by Hugging Face inside a Space: its repository name."),
  server("huggingface", "SPACE_AUTHOR_NAME", unset, anyText,
    "Set by Hugging Face inside a Space: its owner, who signs in as the Gloss owner through OAuth when `USERNAME` is " +
      "unset."),
  server("huggingface", "PERSISTANT_STORAGE_ENABLED", value("false"), boolean,
    "Set by Hugging Face inside a Space (spelled this way): whether the Space has persistent storage."),
  // container
  server("container", "REINDEX_DATASETS", value("false"), boolean,
    "`true`: rebuild every dataset's search index from the database at start."),
  server("container", "GLOSS_APP_MODULE", unset, accepts("a module path or package name"),
    "A module whose default export, a `Layer`, extends the server with routes or middleware."),
  // client
  client("GLOSS_API_URL", value("http://localhost:6900"), url,
    "The server the client and the command line talk to, when not given as an argument or stored by `gloss login`."),
  client("GLOSS_API_KEY", text("the key stored by `gloss login`"), anyText,
    "The API key the client and the command line send."),
  client("GLOSS_WORKSPACE", text("the workspace stored by `gloss login`"), anyText,
    "The default workspace of the client and the command line."),
  client("GLOSS_CACHE_DIR", value("~/.cache/gloss"), accepts("a directory path"),
    "Where `gloss login` keeps `credentials.json`."),
  client("HF_TOKEN_PATH", text("`$HF_HOME/token`"), accepts("a file path"),
    "Where `gloss deploy` looks for a Hub token when `HF_TOKEN` is unset, and saves one after an interactive login."),
  client("HF_HOME", text("`$XDG_CACHE_HOME/huggingface`"), accepts("a directory path"),
    "Hugging Face's home directory, as its own tools read it."),
  client("XDG_CACHE_HOME", value("~/.cache"), accepts("a directory path"), "The cache directory `HF_HOME` defaults under."),
  client("ARGILLA_API_KEY", unset, anyText,
    "The Argilla owner's API key `gloss migrate from-argilla --argilla-api-url` reads with, when `--argilla-api-key` is not given."),
  client("NO_COLOR", unset, accepts("any non-empty value"), "Turns colour off in the command line's output.")
]

/**
 * The test suite in tiers, by what a test file needs to run. Each tier is one vitest project (the browser tier two),
 * and `npm run test:<tier>` runs it alone; `npm test` runs them all. Every test file belongs to exactly one tier:
 * test/unit/test-tiers.test.ts fails otherwise, and checks that a file's imports fit its tier.
 *
 * - unit: nothing outside the test process — no database server, no Redis, no search cluster, no child process.
 * - integration: the server (or its services) in the test process, on SQLite and PostgreSQL, and Redis (standalone,
 *   and a Redis Cluster the tests start themselves).
 * - engines: Elasticsearch and OpenSearch clusters (scripts/engines.sh).
 * - process: spawned processes — `gloss` servers, workers and CLI commands, the benchmarks run small, the Python
 *   SDK suites, Schemathesis, the README's examples; these may need every service too.
 * - browser: Chromium — the UI's components in vitest browser mode, and the end-to-end journeys driving a server.
 *
 * Folders first; files listed one by one are the exceptions in a folder whose other files belong elsewhere. A tier's
 * `exclude` holds the other tiers' globs, so the exceptions are written once.
 */

export interface Tier {
  /** Globs relative to the repository root, as vitest's `include`. */
  readonly include: ReadonlyArray<string>
  readonly exclude?: ReadonlyArray<string>
}

const unit = {
  include: [
    "test/unit/**/*.test.ts",
    "ui/test/unit/**/*.test.ts",
    // The Elasticsearch/OpenSearch query, mapping and document code, and the engine against a fake cluster (the
    // `*.integration` files use real clusters).
    "test/search/elastic/!(*.integration).test.ts",
    // `gloss deploy` against a fake Hub (end-to-end deploys onto a test server).
    "test/deploy/!(end-to-end).test.ts",
    "test/cli/{container-files,failure-message,output}.test.ts",
    "test/client/import-graph.test.ts",
    "test/database/sqlite-file.test.ts",
    "test/jobs/logic.test.ts",
    "test/oauth/settings.test.ts",
    "test/process/node-server-limits.test.ts",
    "test/search/{annWorker,sqlite-text-terms,sqliteReader-interrupt}.test.ts",
    "test/webhooks/{addresses,unit}.test.ts"
  ]
} satisfies Tier

const engines = {
  include: [
    "test/search/elastic/*.integration.test.ts",
    "test/search/{contract,search-limits-engines,server-on-engines}.test.ts"
  ]
} satisfies Tier

const processes = {
  include: [
    "test/process/*.test.ts",
    // The `gloss` command line as an operator runs it (owner-bootstrap calls the bootstrap in-process).
    "test/cli/!(owner-bootstrap).test.ts",
    "test/compat/**/*.test.ts",
    "test/readme/**/*.test.ts",
    // Agreement figures against Python's reference statistics (krippendorff, scikit-learn, statsmodels, NLTK, SciPy).
    "test/review/**/*.test.ts",
    "test/fuzz/schemathesis.test.ts",
    // Python reads and writes the Parquet files, and runs the Hub SDK against the server.
    "test/client/{hubParquet,hub-sdk}.test.ts",
    "test/search/sqliteReader.test.ts"
  ],
  exclude: unit.include
} satisfies Tier

const integration = {
  include: [
    "test/{cli,client,database,deploy,fuzz,http,jobs,oauth,search,webhooks}/**/*.test.ts"
  ],
  exclude: [...unit.include, ...engines.include, ...processes.include]
} satisfies Tier

/** The vitest projects, by tier. */
export const tiers = {
  unit: { unit },
  integration: { integration },
  engines: { engines },
  process: { process: processes },
  browser: {
    browser: { include: ["ui/test/browser/**/*.test.tsx"] },
    "browser-e2e": { include: ["ui/test/e2e/**/*.test.ts"] }
  }
} as const satisfies Record<string, Record<string, Tier>>

export type TierName = keyof typeof tiers

/** Where test files live; a test file elsewhere is in no tier. */
export const TEST_ROOTS = ["test", "ui/test"] as const

/**
 * `gloss/client` pulls in no server code: bundling `src/client/index.ts` with every dependency (as esbuild resolves
 * it, type-only imports dropped) reaches no module under `src/services`, `src/App.ts` or `src/Config.ts`, and no
 * database, Redis, queue or search-engine package.
 */
import * as path from "node:path"
import { build } from "esbuild"
import { describe, expect, it } from "vitest"

const root = path.resolve(import.meta.dirname, "../..")

const FORBIDDEN_SOURCES = [/^src\/services\//, /^src\/http\//, /^src\/App\.ts$/, /^src\/Config\.ts$/]
const FORBIDDEN_PACKAGES = [
  "better-sqlite3",
  "pg",
  "ioredis",
  "bullmq",
  "@elastic/elasticsearch",
  "@opensearch-project/opensearch",
  // The SQL layer and its drivers, and the cluster runtime (the deploy helper imports platform-node's modules
  // one by one because its index would bring these).
  "@effect/sql",
  "@effect/cluster",
  "@effect/sql-pg",
  "@effect/sql-sqlite-node"
]

/** `node_modules/@scope/name/…` or `node_modules/name/…` → the package name (the last node_modules wins). */
const packageOf = (input: string) => {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\/[^]*$/.exec(input)
  return match?.[1]
}

describe("the client's import graph", () => {
  it("reaches no server module and no server-only package", { timeout: 60_000 }, async () => {
    const result = await build({
      absWorkingDir: root,
      entryPoints: ["src/client/index.ts"],
      bundle: true,
      write: false,
      metafile: true,
      platform: "node",
      format: "esm",
      logLevel: "silent"
    })
    const inputs = Object.keys(result.metafile.inputs)
    const sources = inputs.filter((input) => input.startsWith("src/"))
    const packages = new Set(inputs.map(packageOf).filter((name) => name !== undefined))

    // The bundle did follow the client into the contract and the deploy helper.
    expect(sources).toEqual(expect.arrayContaining(["src/client/index.ts", "src/contract/Api.ts", "src/deploy/deployOnSpaces.ts"]))
    expect(sources.filter((source) => FORBIDDEN_SOURCES.some((pattern) => pattern.test(source)))).toEqual([])
    expect(FORBIDDEN_PACKAGES.filter((name) => packages.has(name))).toEqual([])
    expect(packages.has("standardwebhooks")).toBe(true)
  })
})

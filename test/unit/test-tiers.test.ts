/**
 * The test tiers of test/support/tiers.ts: every test file is in exactly one tier (as vitest itself matches the
 * tiers' globs), and what a file reaches through its imports fits its tier — a unit test starts no service client
 * and no process, an integration test spawns nothing, a process test spawns something.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import ts from "typescript"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createVitest, type Vitest } from "vitest/node"
import { TEST_ROOTS, type TierName, tiers } from "../support/tiers.js"

const ROOT = path.resolve(import.meta.dirname, "../..")

const relative = (file: string) => path.relative(ROOT, file).split(path.sep).join("/")

const walk = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : walk(full)
    return [full]
  })

const testFiles = TEST_ROOTS.flatMap((root) => walk(path.join(ROOT, root)))
  .filter((file) => /\.test\.tsx?$/.test(file))
  .map(relative)
  .sort()

const projects = Object.entries(tiers).flatMap(([tier, byProject]) =>
  Object.entries(byProject).map(([name, globs]) => ({ tier: tier as TierName, name, globs })))

/** The tier (and project) of each test file, as vitest matches the globs. */
let tierOf: Map<string, ReadonlyArray<{ readonly tier: TierName; readonly project: string }>>
let vitest: Vitest | undefined

beforeAll(async () => {
  vitest = await createVitest("test", {
    config: false,
    watch: false,
    projects: projects.map(({ name, globs }) => ({ test: { name, include: [...globs.include], exclude: [...(globs.exclude ?? [])] } }))
  })
  tierOf = new Map(testFiles.map((file) => [
    file,
    projects.filter(({ name }) => vitest!.projects.find((p) => p.name === name)!.matchesTestGlob(path.join(ROOT, file)))
      .map(({ name, tier }) => ({ tier, project: name }))
  ]))
}, 60_000)

afterAll(() => vitest?.close())

const importsOf = new Map<string, ReadonlyArray<string>>()
/** The module names a test source imports (relative ones as written). */
const imports = (file: string): ReadonlyArray<string> => {
  let names = importsOf.get(file)
  if (names === undefined) {
    names = ts.preProcessFile(fs.readFileSync(path.join(ROOT, file), "utf8"), true, true).importedFiles.map(({ fileName }) => fileName)
    importsOf.set(file, names)
  }
  return names
}

/** The test sources (under test/ and ui/test/) a file reaches through relative imports, itself included. */
const reached = (file: string): ReadonlyArray<string> => {
  const seen = new Set<string>()
  const visit = (at: string) => {
    if (seen.has(at) || !TEST_ROOTS.some((root) => at.startsWith(`${root}/`))) return
    seen.add(at)
    for (const fileName of imports(at)) {
      if (!fileName.startsWith(".")) continue
      const base = relative(path.resolve(path.dirname(path.join(ROOT, at)), fileName.replace(/\.js$/, "")))
      const found = [".ts", ".tsx"].map((ext) => base + ext).find((candidate) => fs.existsSync(path.join(ROOT, candidate)))
      if (found !== undefined) visit(found)
    }
  }
  visit(file)
  return [...seen]
}

/** What a file needs, from the helpers and packages it reaches. */
const needs = (file: string) => {
  const files = reached(file)
  const spawners = files.filter((at) =>
    // The Redis Cluster the job tests start is a service, like PostgreSQL: not a process under test.
    at !== "test/jobs/support/redis.ts" && imports(at).some((name) => name === "node:child_process" || name === "child_process"))
  return {
    database: files.includes("test/support/databases.ts"),
    redis: files.includes("test/jobs/support/redis.ts"),
    engines: files.includes("test/support/searchEngines.ts"),
    spawns: spawners.length > 0,
    spawners
  }
}

describe("test tiers", () => {
  it("finds the test files", () => {
    expect(testFiles.length).toBeGreaterThan(150)
  })

  it("every test file is in exactly one tier", () => {
    const wrong = testFiles
      .map((file) => ({ file, in: (tierOf.get(file) ?? []).map(({ project }) => project) }))
      .filter((entry) => entry.in.length !== 1)
    expect(wrong, "add the file (or its folder) to one tier in test/support/tiers.ts").toEqual([])
  })

  it("a file's imports fit its tier", () => {
    const misplaced: Array<string> = []
    for (const file of testFiles) {
      const [where] = tierOf.get(file) ?? []
      if (where === undefined) continue
      const need = needs(file)
      const services = need.database || need.redis || need.engines
      const problem = where.tier === "unit"
        ? (services || need.spawns) && "a unit test reaches a service or spawns a process"
        : where.tier === "integration"
        ? (need.engines && "an integration test reaches the search clusters") ||
          (need.spawns && `an integration test spawns processes (${need.spawners.join(", ")})`) ||
          (!services && "an integration test needs no service: it belongs to unit")
        : where.tier === "engines"
        ? (!need.engines && "an engines test reaches no search cluster") ||
          (need.spawns && `an engines test spawns processes (${need.spawners.join(", ")})`)
        : where.tier === "process"
        ? !need.spawns && "a process test spawns nothing"
        : false
      if (problem) misplaced.push(`${file}: ${problem}`)
    }
    expect(misplaced).toEqual([])
  })
})

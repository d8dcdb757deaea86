/**
 * The layout's rules (docs/explanation/architecture.md#the-rules-the-architecture-test-enforces), checked on the import
 * graph of `src/`: every import and export of a relative module, type-only ones included (a type is a dependency too),
 * as the TypeScript pre-processor reads them.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const src = path.resolve(import.meta.dirname, "../../src")

interface Edge {
  readonly from: string
  readonly to: string
}

const sourceFiles = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return entry.name.endsWith(".ts") ? [full] : []
  })

/** Paths relative to `src/`, with `/` separators: `services/jobs/JobQueue.ts`. */
const edges: ReadonlyArray<Edge> = sourceFiles(src).flatMap((file) =>
  ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true).importedFiles
    .map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => ({
      from: path.relative(src, file).split(path.sep).join("/"),
      to: path.relative(src, path.resolve(path.dirname(file), specifier.replace(/\.js$/, ".ts"))).split(path.sep).join("/")
    }))
)

/** The graph's unit: a folder of `src/`, and inside `services/` each feature or infrastructure folder. */
const folderOf = (file: string): string => {
  const parts = file.split("/")
  if (parts[0] === "services") return parts.length > 2 ? `services/${parts[1]}` : "services"
  return parts.length > 1 ? parts[0]! : file
}

const APP_ASSEMBLY = /^(App|Workers|Bootstrap|Health)\.ts$/
const INFRASTRUCTURE = /^services\/(database|search|jobs|webhooks|secrets)\//
const FEATURES = /^services\/(account|assignment|auth|datasets|exports|hub|invitations|oauth|records|review|setup|users|workspaces)\//

const RULES: ReadonlyArray<{ readonly rule: string; readonly from: RegExp; readonly forbidden: RegExp }> = [
  {
    rule: "the client reaches no server module",
    from: /^client\//,
    forbidden: new RegExp(`^(services|http|cli|bin)/|^Config\\.ts$|${APP_ASSEMBLY.source}`)
  },
  { rule: "domain imports nothing outside domain", from: /^domain\//, forbidden: /^(?!domain\/)/ },
  { rule: "the contract imports only domain", from: /^contract\//, forbidden: /^(?!domain\/|contract\/)/ },
  // The services, the HTTP layer, the migrations and the client all use the hand codecs: importing only domain, they
  // lead none of them to a module it must not reach.
  { rule: "the hand codecs import only domain", from: /^codecs\//, forbidden: /^(?!domain\/|codecs\/)/ },
  {
    rule: "the transfer formats (shared by the client and the server's jobs) import only domain",
    from: /^transfer\//,
    forbidden: /^(?!domain\/|transfer\/)/
  },
  {
    rule: "services import neither the server nor the contract",
    from: /^services\//,
    forbidden: new RegExp(`^(http|contract|cli|bin|client)/|${APP_ASSEMBLY.source}`)
  },
  { rule: "infrastructure imports no feature", from: INFRASTRUCTURE, forbidden: FEATURES },
  {
    rule: "the root of services (Policy, ids, clock, …) imports no feature and no infrastructure but the database",
    from: /^services\/[^/]+\.ts$/,
    forbidden: /^services\/(?!database\/)[^/]+\//
  }
]

/** Strongly connected components of more than one folder (Tarjan). */
const folderCycles = (list: ReadonlyArray<Edge>): Array<Array<string>> => {
  const graph = new Map<string, Set<string>>()
  for (const { from, to } of list) {
    const [a, b] = [folderOf(from), folderOf(to)]
    if (!graph.has(b)) graph.set(b, new Set())
    if (a !== b) (graph.get(a) ?? graph.set(a, new Set()).get(a)!).add(b)
  }
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const cycles: Array<Array<string>> = []
  const visit = (node: string) => {
    index.set(node, counter)
    low.set(node, counter++)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!))
    }
    if (low.get(node) === index.get(node)) {
      const component: Array<string> = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== node)
      if (component.length > 1) cycles.push(component.sort())
    }
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return cycles
}

describe("the import graph of src/", () => {
  it("is read: it holds the edges the rules are about", () => {
    expect(edges).toContainEqual({ from: "http/Server.ts", to: "contract/Api.ts" })
    expect(edges).toContainEqual({ from: "client/Transport.ts", to: "contract/Api.ts" })
    expect(edges).toContainEqual({ from: "codecs/recordRows.ts", to: "domain/Ids.ts" })
  })

  for (const { forbidden, from, rule } of RULES) {
    it(rule, () => {
      const violations = edges
        .filter((edge) => from.test(edge.from) && forbidden.test(edge.to))
        .map((edge) => `${edge.from} → ${edge.to}`)
      expect(violations).toEqual([])
    })
  }

  it("has no cycle between folders (services/ counted folder by folder)", () => {
    const cycles = folderCycles(edges).map((cycle) =>
      cycle.join(" ↔ ") + "\n" + edges
        .filter((edge) => cycle.includes(folderOf(edge.from)) && cycle.includes(folderOf(edge.to)))
        .filter((edge) => folderOf(edge.from) !== folderOf(edge.to))
        .map((edge) => `  ${edge.from} → ${edge.to}`)
        .join("\n")
    )
    expect(cycles).toEqual([])
  })
})

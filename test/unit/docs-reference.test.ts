/**
 * The generated reference pages cannot drift from the code:
 * - the configuration catalogue (src/config/catalog.ts) names exactly the variables `GlossConfig` reads (recorded
 *   through a ConfigProvider that notes every key asked for) plus exactly the ones read elsewhere in `src/`;
 * - every default it states is the default (setting it changes nothing), and every range, list of values and boolean
 *   it states is what the configuration accepts and refuses;
 * - docs/reference/{configuration,cli,rest-api}.md are what `npm run docs:reference` writes now.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { ConfigProvider, Effect, Either, Option, Redacted } from "effect"
import { generatedPages } from "../../scripts/docs/reference.js"
import { variables } from "../../src/config/catalog.js"
import { GlossConfig } from "../../src/Config.js"

const root = path.resolve(import.meta.dirname, "../..")

const provider = (env: Record<string, string>) => ConfigProvider.fromMap(new Map(Object.entries(env)))

/** The keys `GlossConfig` asks its provider for. */
const keysRead = (env: Record<string, string>): Set<string> => {
  const inner = provider(env).flattened
  const keys = new Set<string>()
  const recording = ConfigProvider.fromFlat(ConfigProvider.makeFlat({
    load: (keyPath, primitive, split) => {
      keys.add(keyPath.join("."))
      return inner.load(keyPath, primitive, split)
    },
    enumerateChildren: (keyPath) => {
      keys.add(keyPath.join("."))
      return inner.enumerateChildren(keyPath)
    },
    patch: inner.patch
  }))
  Effect.runSync(GlossConfig.load.pipe(Effect.withConfigProvider(recording)))
  return keys
}

const load = (env: Record<string, string>) =>
  Effect.runSync(Effect.either(GlossConfig.load.pipe(Effect.withConfigProvider(provider(env)))))

/** A configuration as comparable JSON: secrets and URLs by their value. */
const comparable = (value: unknown): unknown => {
  if (Redacted.isRedacted(value)) return { redacted: Redacted.value(value) }
  if (value instanceof URL) return value.href
  if (Option.isOption(value)) return Option.isSome(value) ? { some: comparable(value.value) } : "none"
  if (Array.isArray(value)) return value.map(comparable)
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, comparable(v)]))
  }
  return value
}

const sourceFiles = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return /\.tsx?$/.test(entry.name) ? [full] : []
  })

/** Every way `src/` reads an environment variable outside `Config.ts`. */
const READERS = [
  /\bV\.\w+\(\s*"([A-Z][A-Z0-9_]*)"/g,
  /\benvString\(\s*"([A-Z][A-Z0-9_]*)"/g,
  /\bConfig\.\w+\(\s*"([A-Z][A-Z0-9_]*)"/g,
  /\borEnv\([^,()]+,\s*"([A-Z][A-Z0-9_]*)"\)/g,
  /\bprocess\.env\[\s*"([A-Z][A-Z0-9_]*)"\s*\]/g,
  /\bprocess\.env\.([A-Z][A-Z0-9_]*)/g
]

const readElsewhere = (): Map<string, Set<string>> => {
  const found = new Map<string, Set<string>>()
  for (const file of sourceFiles(path.join(root, "src"))) {
    const relative = path.relative(root, file)
    if (relative === path.join("src", "Config.ts") || relative === path.join("src", "config", "catalog.ts")) continue
    const text = fs.readFileSync(file, "utf8")
    // A reader this test does not know would go unnoticed: every process.env use must be one of the forms above.
    for (const use of text.matchAll(/\bprocess\.env\b(.{0,40})/g)) {
      expect(use[1], `${relative}: process.env${use[1]}`).toMatch(/^(\[\s*"[A-Z][A-Z0-9_]*"\s*\]|\.[A-Z][A-Z0-9_]*)/)
    }
    for (const reader of READERS) {
      for (const match of text.matchAll(reader)) {
        const name = match[1]!
        found.set(name, (found.get(name) ?? new Set()).add(relative))
      }
    }
  }
  return found
}

describe("the configuration catalogue", () => {
  const serverNames = variables.filter((v) => v.reader === "server").map((v) => v.name).sort()
  const clientNames = variables.filter((v) => v.reader === "client").map((v) => v.name).sort()

  it("names each variable once", () => {
    const names = variables.map((v) => v.name)
    expect(names.length).toBe(new Set(names).size)
  })

  it("lists exactly the variables GlossConfig reads", () => {
    expect([...keysRead({})].sort()).toEqual(serverNames)
  })

  it("lists every variable read outside Config.ts, and its client entries are all read there", () => {
    const elsewhere = readElsewhere()
    const unlisted = [...elsewhere].filter(([name]) => !variables.some((v) => v.name === name))
    expect(unlisted.map(([name, files]) => `${name} (${[...files].join(", ")})`)).toEqual([])
    expect(clientNames.filter((name) => !elsewhere.has(name))).toEqual([])
  })

  it("states the defaults: setting a variable to its stated default changes nothing", () => {
    const unset = load({})
    if (Either.isLeft(unset)) throw new Error(String(unset.left))
    const expected = JSON.stringify(comparable(unset.right))
    for (const v of variables) {
      if (v.reader !== "server" || v.default.kind !== "value") continue
      const set = load({ [v.name]: v.default.value })
      if (Either.isLeft(set)) throw new Error(`${v.name}=${v.default.value}: ${String(set.left)}`)
      expect(JSON.stringify(comparable(set.right)), `${v.name}=${v.default.value}`).toBe(expected)
    }
  })

  it("states what each variable accepts: ranges, lists of values and booleans", () => {
    const accepted = (name: string, value: string) => Either.isRight(load({ [name]: value }))
    for (const v of variables) {
      if (v.reader !== "server") continue
      const a = v.accepts
      const label = (value: string) => `${v.name}=${value}`
      switch (a.kind) {
        case "integer":
        case "number": {
          const below = a.kind === "integer" || a.min >= 1 ? a.min - 1 : a.min === 0 ? -1 : 0
          for (const ok of [a.min, a.max]) expect(accepted(v.name, String(ok)), label(String(ok))).toBe(true)
          for (const bad of [below, a.max + 1]) expect(accepted(v.name, String(bad)), label(String(bad))).toBe(false)
          if (a.kind === "integer") expect(accepted(v.name, `${a.min}.5`), label(`${a.min}.5`)).toBe(false)
          break
        }
        case "boolean":
          for (const ok of ["true", "false", "1", "0", "Yes", "OFF"]) expect(accepted(v.name, ok), label(ok)).toBe(true)
          expect(accepted(v.name, "maybe"), label("maybe")).toBe(false)
          break
        case "oneOf":
          for (const ok of a.values) expect(accepted(v.name, ok), label(ok)).toBe(true)
          expect(accepted(v.name, "no-such-value"), label("no-such-value")).toBe(false)
          break
        case "text":
          break
      }
    }
  })
})

describe("the generated reference pages", () => {
  for (const [file, text] of Object.entries(generatedPages())) {
    it(`${file} is what npm run docs:reference writes`, () => {
      const committed = fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file), "utf8") : ""
      expect(committed === text, `${file} is out of date: run npm run docs:reference`).toBe(true)
    })
  }
})

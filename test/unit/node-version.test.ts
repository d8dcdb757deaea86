/**
 * The README and package.json promise one Node version (`engines.node`); every installed package must run on the
 * oldest Node that range allows. @axe-core/playwright 4.14 quietly moved to Node ≥ 22.12 while Gloss said ≥ 20.19.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import semver from "semver"
import { describe, expect, it } from "vitest"

const ROOT = path.resolve(import.meta.dirname, "../..")
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>

/** Every package.json under node_modules, nested installs included. */
const installedPackages = function*(dir: string): Generator<string> {
  if (!fs.existsSync(dir)) return
  for (const name of fs.readdirSync(dir)) {
    if (name.startsWith(".")) continue
    const at = path.join(dir, name)
    if (name.startsWith("@")) {
      yield* installedPackages(at)
      continue
    }
    const manifest = path.join(at, "package.json")
    if (fs.existsSync(manifest)) yield manifest
    yield* installedPackages(path.join(at, "node_modules"))
  }
}

describe("the Node version", () => {
  const range = (readJson(path.join(ROOT, "package.json")).engines as { node: string }).node
  const oldest = semver.minVersion(range)!.version

  it("the README's quickstart names the range of package.json", () => {
    expect(fs.readFileSync(path.join(ROOT, "README.md"), "utf8")).toContain(`Node ≥ ${oldest.replace(/\.0$/, "")}`)
  })

  it("every installed package runs on the oldest Node that package.json allows", () => {
    const refusing: Array<string> = []
    for (const manifest of installedPackages(path.join(ROOT, "node_modules"))) {
      const { engines, name, version } = readJson(manifest) as { engines?: { node?: unknown }; name?: string; version?: string }
      const wanted = engines?.node
      if (typeof wanted !== "string" || semver.validRange(wanted) === null) continue
      if (!semver.satisfies(oldest, wanted)) refusing.push(`${name}@${version} wants Node ${wanted}`)
    }
    expect(refusing, `packages that refuse Node ${oldest}`).toEqual([])
  })
})

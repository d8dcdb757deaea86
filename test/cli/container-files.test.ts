/**
 * What can be checked of the image and the compose file without Docker (not installed here): they name only
 * variables Gloss reads, copy only files that exist and are not excluded from the build context, and wire the
 * services as documented. Building and running the image is left to a machine with Docker.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { parse } from "yaml"

// Not from ./support.js, which spawns the CLI: this file reads files only (a unit test).
const ROOT = path.resolve(import.meta.dirname, "../..")

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8")
const dockerfile = read("Dockerfile")
const compose = read("docker-compose.yml")
const config = read("src/Config.ts")

interface Service {
  readonly image?: string
  readonly build?: string
  readonly command?: ReadonlyArray<string>
  readonly environment?: Readonly<Record<string, string>>
  readonly depends_on?: Readonly<Record<string, { readonly condition: string }>>
  readonly healthcheck?: { readonly test?: ReadonlyArray<string>; readonly disable?: boolean }
}

const services = (parse(compose, { merge: true }) as { services: Readonly<Record<string, Service>> }).services

describe("container files", () => {
  it("every GLOSS_* variable named in the Dockerfile, the compose file and docker/ is one src/Config.ts reads", () => {
    const files = [dockerfile, compose, read("docker/entrypoint.sh"), read("docker/healthcheck.mjs")]
    const named = new Set(files.flatMap((text) => [...text.matchAll(/\bGLOSS_[A-Z_]+\b/g)].map((m) => m[0])))
    // The entrypoint's own variable: which gloss executable to run.
    named.delete("GLOSS_CLI")
    expect([...named].filter((name) => !config.includes(`"${name}"`))).toEqual([])
  })

  it("the Dockerfile copies files that exist into the image and are not excluded from the build context", () => {
    const ignored = read(".dockerignore").split("\n").map((line) => line.trim()).filter((line) => line !== "" && !line.startsWith("#"))
    const copied = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => (m[1] ?? "").split(" "))
    expect(copied).toContain("docker/entrypoint.sh")
    for (const file of copied) {
      expect(fs.existsSync(path.join(ROOT, file)), file).toBe(true)
      expect(ignored.filter((pattern) => file === pattern || file.startsWith(`${pattern}/`)), file).toEqual([])
    }
    // What the build needs must reach it.
    for (const needed of ["src", "ui", "package.json", "package-lock.json", "tsconfig.json", "docker"]) {
      expect(ignored, needed).not.toContain(needed)
    }
    expect(fs.statSync(path.join(ROOT, "docker/entrypoint.sh")).mode & 0o111).not.toBe(0)
    expect(dockerfile).toMatch(/^ENTRYPOINT \["\/app\/docker\/entrypoint\.sh"\]$/m)
    expect(dockerfile).toMatch(/^HEALTHCHECK .* CMD \["node", "\/app\/docker\/healthcheck\.mjs"\]$/m)
    expect(dockerfile).toMatch(/^USER gloss$/m)
  })

  it("compose runs a server and a worker on PostgreSQL, Redis and Elasticsearch, with one shared secret", () => {
    const { elasticsearch, gloss, postgres, redis, worker } = services
    expect(gloss?.command).toEqual(["server"])
    expect(worker?.command).toEqual(["worker", "-n", "2"])
    expect(postgres?.image).toBe("postgres:16")
    expect(redis?.image).toBe("redis:7")
    expect(elasticsearch?.image).toMatch(/elasticsearch:8\.\d+\.\d+$/)
    for (const process of [gloss, worker]) {
      expect(process?.environment).toMatchObject({
        GLOSS_DATABASE_URL: "postgresql://gloss:gloss@postgres:5432/gloss",
        GLOSS_REDIS_URL: "redis://redis:6379/0",
        GLOSS_ELASTICSEARCH: "http://elasticsearch:9200",
        GLOSS_SEARCH_ENGINE: "elasticsearch"
      })
      expect(process?.depends_on).toMatchObject({
        postgres: { condition: "service_healthy" },
        redis: { condition: "service_healthy" },
        elasticsearch: { condition: "service_healthy" }
      })
    }
    expect(worker?.environment?.["GLOSS_AUTH_SECRET_KEY"]).toBe(gloss?.environment?.["GLOSS_AUTH_SECRET_KEY"])
    expect(worker?.depends_on?.["gloss"]).toEqual({ condition: "service_healthy" })
    for (const name of ["USERNAME", "PASSWORD", "API_KEY", "WORKSPACE"]) expect(gloss?.environment).toHaveProperty(name)
  })
})

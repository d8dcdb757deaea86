/**
 * `gloss db migrate` and `gloss bootstrap` as processes, on every database: what they print, their exit codes, and
 * that running them again changes nothing.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, it } from "vitest"
import { dialects, freshDatabase } from "../support/databases.js"
import { buildCli, gloss } from "./support.js"

let cli = ""
const scope = Effect.runSync(Scope.make())
beforeAll(async () => {
  cli = await buildCli("fast")
})
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const database = (dialect: (typeof dialects)[number]) =>
  Effect.runPromise(freshDatabase(dialect).pipe(Scope.extend(scope))).then(({ env }) => env)

const OWNER = { USERNAME: "admin", PASSWORD: "admin-password", WORKSPACE: "team" }

// Every test has a database of its own: they run side by side (most of their time is node starting).
describe.concurrent("db migrate and bootstrap", () => {
  for (const dialect of dialects) {
    it(`${dialect}: db migrate applies every migration to a fresh database, then finds it up to date`, async ({ expect }) => {
      const env = await database(dialect)
      const first = await gloss(cli, ["db", "migrate"], env)
      expect(first.code).toBe(0)
      expect(first.stdout).toMatch(/^Applied \d+ migration\(s\): 1_users_and_workspaces, /)
      const again = await gloss(cli, ["db", "migrate"], env)
      expect(again).toMatchObject({ code: 0, stdout: "The database is up to date\n", stderr: "" })
    })

    it(`${dialect}: bootstrap creates the owner and prints its generated key once; a second run creates nothing`, async ({ expect }) => {
      const env = { ...(await database(dialect)), ...OWNER }
      const first = await gloss(cli, ["bootstrap"], env)
      expect(first.code).toBe(0)
      const created = /Created the owner user 'admin'\. Its API key \(shown once, generated because API_KEY is unset\): (\S+)\n/
        .exec(first.stdout)
      expect(created?.[1]).toMatch(/^[\w-]{64}$/)

      const again = await gloss(cli, ["bootstrap"], env)
      expect(again.code).toBe(0)
      expect(again.stdout).toBe("The owner was not created: a user named 'admin' already exists\n")
      expect(again.stdout + again.stderr).not.toContain(created?.[1])

      const users = await gloss(cli, ["users", "list"], env)
      expect(users.stdout).toMatch(/^admin\towner\t[0-9a-f-]{36}\n$/)
    })
  }

  it("db migrate against an unreachable PostgreSQL: one line naming the variable, no password, exit 1", async ({ expect }) => {
    const result = await gloss(cli, ["db", "migrate"], { GLOSS_DATABASE_URL: "postgresql://gloss:secret-pw@127.0.0.1:1/none" })
    expect(result.code).toBe(1)
    expect(result.stdout).toBe("")
    expect(result.stderr).toMatch(/^gloss db migrate failed: the database is unreachable \(.*\)\. Check GLOSS_DATABASE_URL\.\n$/)
    expect(result.stderr).not.toContain("secret-pw")
  })

  it("bootstrap without USERNAME and PASSWORD says what to set, touches no database, exit 1", async ({ expect }) => {
    const env = await database("sqlite")
    const result = await gloss(cli, ["bootstrap"], env)
    expect(fs.existsSync(path.join(env.GLOSS_HOME_PATH, "gloss.db"))).toBe(false)
    expect(result).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "gloss bootstrap failed: USERNAME and PASSWORD are not set: set both (and optionally API_KEY, WORKSPACE) " +
        "to create the owner\n"
    })
  })

  it("bootstrap with a key another user already has creates nobody", async ({ expect }) => {
    const env = await database("sqlite")
    const created = await gloss(cli, ["users", "create", "--username", "someone", "--password", "password-1", "--api-key", "taken.key.123"], env)
    expect(created.code).toBe(0)
    const result = await gloss(cli, ["bootstrap"], { ...env, ...OWNER, API_KEY: "taken.key.123" })
    expect(result.code).toBe(0)
    expect(result.stdout).toBe("The owner was not created: a user with that API_KEY already exists\n")
    expect((await gloss(cli, ["users", "list"], env)).stdout).not.toContain("admin")
  })
})

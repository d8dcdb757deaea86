/**
 * The pure parts of `gloss migrate from-argilla`: conflict decisions, what Gloss cannot hold, the comparable forms
 * and digests, and reading Argilla's SQLite layout (UUIDs as 32 hex digits, naive UTC timestamps, JSON as text) from
 * a database written here the way SQLAlchemy writes it.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import Sqlite from "better-sqlite3"
import { Effect, Exit, Stream, Chunk } from "effect"
import { describe, expect, it } from "vitest"
import { Digest, fromSource, stableJson } from "../../src/migrate/canonical.js"
import { fromDatabase, KNOWN_REVISIONS } from "../../src/migrate/fromDatabase.js"
import { decide, unholdable, visibilityNotes } from "../../src/migrate/plan.js"
import type { DatasetSettings } from "../../src/migrate/model.js"

describe("conflict decisions", () => {
  const taken = new Map([["alice", "id-a"], ["alice-argilla", "id-x"]])
  it("writes a name that is free or held by the same id", () => {
    expect(decide("user", "id-b", "bob", taken, "fail", [])).toEqual({ _tag: "write", name: "bob" })
    expect(decide("user", "id-a", "alice", taken, "fail", [])).toEqual({ _tag: "write", name: "alice" })
  })
  it("records a conflict under fail, skips under skip, and renames to a free name under rename", () => {
    const conflicts: Array<string> = []
    expect(decide("user", "id-c", "alice", taken, "fail", conflicts)._tag).toBe("skip")
    expect(conflicts).toHaveLength(1)
    expect(conflicts[0]).toContain("user 'alice' exists in Gloss already")
    const skipped = decide("user", "id-c", "alice", taken, "skip", [])
    expect(skipped).toMatchObject({ _tag: "skip", reason: expect.stringContaining("--on-conflict skip") })
    expect(decide("user", "id-c", "alice", taken, "rename", [])).toEqual({ _tag: "write", name: "alice-argilla-2" })
  })
})

const settings = (patch: Partial<DatasetSettings>): DatasetSettings => ({
  fields: [],
  questions: [],
  metadataProperties: [],
  vectorSettings: [],
  ...patch
})
const stamp = { id: "00000000-0000-4000-8000-000000000001", inserted_at: new Date(0), updated_at: new Date(0), dataset_id: "d" }

describe("what Gloss cannot hold", () => {
  it("names a field type Gloss does not know, and passes Argilla's own", () => {
    const known = { ...stamp, name: "text", title: "Text", required: true, settings: { type: "text", use_markdown: false } }
    const unknown = { ...stamp, name: "audio", title: "Audio", required: false, settings: { type: "audio" } }
    expect(unholdable(settings({ fields: [known] }))).toEqual([])
    expect(unholdable(settings({ fields: [known, unknown] }))).toEqual([expect.stringContaining("field 'audio'")])
  })
  it("carries Argilla's two visibilities exactly and reports any other role list", () => {
    const property = (roles: Array<string>) => ({ ...stamp, name: "m", title: "M", settings: { type: "terms" }, allowed_roles: roles })
    expect(visibilityNotes(settings({ metadataProperties: [property(["admin"]), property(["admin", "annotator"])] }))).toEqual([])
    expect(visibilityNotes(settings({ metadataProperties: [property(["owner"])] }))).toEqual([expect.stringContaining("hidden from annotators")])
  })
})

describe("comparable forms", () => {
  it("sorts JSON keys and ignores undefined", () => {
    expect(stableJson({ b: 1, a: [{ d: 2, c: undefined }] })).toBe('{"a":[{"d":2}],"b":1}')
  })
  it("digests a set of rows the same in any order, and differently when a value differs", () => {
    const row = (id: string, name: string) => fromSource.workspaces({ id, name, inserted_at: new Date(1), updated_at: new Date(2) })
    const a = new Digest()
    const b = new Digest()
    const c = new Digest()
    ;[row("1", "x"), row("2", "y")].forEach((r) => a.add(r))
    ;[row("2", "y"), row("1", "x")].forEach((r) => b.add(r))
    ;[row("1", "x"), row("2", "z")].forEach((r) => c.add(r))
    expect(a.equals(b)).toBe(true)
    expect(a.equals(c)).toBe(false)
    expect(c.count).toBe(2)
  })
})

/** An Argilla-shaped SQLite database, with only the tables the reader touches for these checks. */
const argillaFile = (revision: string) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "argilla-db-")), "argilla.db")
  const db = new Sqlite(file)
  db.exec(`
    create table alembic_version (version_num varchar(32) primary key);
    create table users (id char(32) primary key, first_name text, last_name text, username text, role text, api_key text,
      password_hash text, inserted_at datetime, updated_at datetime);
    create table datasets (id char(32) primary key, name text, guidelines text, allow_extra_metadata boolean, status text,
      distribution json, metadata json, workspace_id char(32), inserted_at datetime, updated_at datetime, last_activity_at datetime);
    create table records (id char(32) primary key, fields json, metadata json, status text, external_id text,
      dataset_id char(32), inserted_at datetime, updated_at datetime);
    create table responses (id char(32) primary key, "values" json, status text, record_id char(32), user_id char(32), inserted_at datetime, updated_at datetime);
    create table suggestions (id char(32) primary key, value json, score json, agent text, type text, record_id char(32), question_id char(32), inserted_at datetime, updated_at datetime);
    create table vectors (id char(32) primary key, value json, record_id char(32), vector_settings_id char(32), inserted_at datetime, updated_at datetime);
  `)
  db.prepare("insert into alembic_version values (?)").run(revision)
  return { file, db }
}

describe("reading Argilla's SQLite database", () => {
  it("refuses a schema revision it does not know, naming it", async () => {
    const { db, file } = argillaFile("0123456789ab")
    db.close()
    const exit = await Effect.runPromiseExit(fromDatabase(file))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(JSON.stringify(exit)).toContain("schema revision 0123456789ab, which this migration does not know")
  })

  it("refuses a file that is not Argilla's, and a path with no file", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "argilla-db-")), "other.db")
    new Sqlite(file).close()
    expect(JSON.stringify(await Effect.runPromiseExit(fromDatabase(file)))).toContain("no alembic_version table")
    expect(JSON.stringify(await Effect.runPromiseExit(fromDatabase(`${file}.missing`)))).toContain("There is no Argilla database")
  })

  it("reads hex UUIDs, naive UTC timestamps and JSON text into the model, and pages records in insertion order", async () => {
    const { db, file } = argillaFile(KNOWN_REVISIONS.at(-1)!)
    const dataset = "0a1b2c3d4e5f40718293a4b5c6d7e8f9"
    db.prepare("insert into users values (?, 'Ann', null, 'ann', 'annotator', 'key-1', '$2b$12$hash', '2024-05-01 10:00:00.123456', '2024-05-01 10:00:00.123456')")
      .run("ffffffffffff4fffbfffffffffffffff")
    for (let i = 0; i < 5; i++) {
      db.prepare("insert into records values (?, ?, null, 'pending', ?, ?, ?, ?)").run(
        `0000000000004000800000000000000${i}`, JSON.stringify({ text: `t${i}` }), `r${i}`, dataset,
        `2024-05-01 10:00:0${4 - i}.000000`, `2024-05-01 10:00:0${4 - i}.000000`
      )
    }
    db.close()
    const source = await Effect.runPromise(fromDatabase(file))
    const [user] = await Effect.runPromise(source.users)
    expect(user).toMatchObject({
      id: "ffffffff-ffff-4fff-bfff-ffffffffffff",
      username: "ann",
      last_name: null,
      password_hash: "$2b$12$hash",
      inserted_at: new Date("2024-05-01T10:00:00.123Z")
    })
    const datasetId = "0a1b2c3d-4e5f-4071-8293-a4b5c6d7e8f9"
    const pages = Chunk.toReadonlyArray(await Effect.runPromise(Stream.runCollect(source.recordPages(datasetId, { since: undefined, pageSize: 2 }))))
    expect(pages.map((page) => page.records.length)).toEqual([2, 2, 1])
    expect(pages.flatMap((page) => page.records.map((record) => record.external_id))).toEqual(["r4", "r3", "r2", "r1", "r0"])
    expect(pages[0]!.records[0]!.fields).toEqual({ text: "t4" })
    const changed = Chunk.toReadonlyArray(await Effect.runPromise(Stream.runCollect(
      source.recordPages(datasetId, { since: new Date("2024-05-01T10:00:03Z"), pageSize: 10 })
    )))
    expect(changed.flatMap((page) => page.records.map((record) => record.external_id))).toEqual(["r1", "r0"])
    expect(await Effect.runPromise(source.recordCount(datasetId))).toBe(5)
    await Effect.runPromise(source.close)
  })
})

/**
 * The pieces of the file export that need no server: CSV cells and quoting (read back by a CSV parser), and the zip
 * writer (read back by the tests' own central-directory reader), with a file larger than a deflate window and a
 * UTF-8 name.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parse } from "csv-parse/sync"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { csvLine } from "../../src/transfer/exportFiles.js"
import { writeZip } from "../../src/transfer/zipFile.js"
import { zipEntries } from "../support/zipEntries.js"

describe("CSV lines", () => {
  it("quote what needs it, write numbers and booleans plainly, nested values as JSON, nothing as empty", () => {
    const cells = ["plain", "a, b", "say \"hi\"", "two\nlines", " padded ", 0.5, true, null, undefined, { k: [1, "x"] }, ["a"]]
    const line = csvLine(cells)
    expect(line.endsWith("\r\n")).toBe(true)
    const [row] = parse(line) as Array<Array<string>>
    expect(row).toEqual(["plain", "a, b", "say \"hi\"", "two\nlines", " padded ", "0.5", "true", "", "", "{\"k\":[1,\"x\"]}", "[\"a\"]"])
  })
})

describe("the zip writer", () => {
  it("writes files a zip reader gets back byte for byte, deflated, with UTF-8 names", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gloss-zip-"))
    const big = Buffer.from(Array.from({ length: 20_000 }, (_, i) => `{"id": ${i}, "text": "record ${i * 7919 % 10007}"}`).join(","))
    const small = Buffer.from("{\"name\": \"Zoë ✓\"}")
    writeFileSync(join(dir, "big"), big)
    writeFileSync(join(dir, "small"), small)
    writeFileSync(join(dir, "empty"), "")
    const path = join(dir, "out.zip")
    await Effect.runPromise(writeZip(path, [
      { name: "records.json", path: join(dir, "big") },
      { name: ".argilla/ré.json", path: join(dir, "small") },
      { name: "empty.txt", path: join(dir, "empty") }
    ], new Date(2026, 0, 2, 3, 4, 6)))
    const zip = readFileSync(path)
    expect(zip.length).toBeLessThan(big.length / 2)
    const files = zipEntries(zip)
    expect([...files.keys()]).toEqual(["records.json", ".argilla/ré.json", "empty.txt"])
    expect(files.get("records.json")?.equals(big)).toBe(true)
    expect(files.get(".argilla/ré.json")?.toString("utf8")).toBe("{\"name\": \"Zoë ✓\"}")
    expect(files.get("empty.txt")?.length).toBe(0)
  })

  it("fails with a TransferFileError for a file that cannot be read", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gloss-zip-"))
    const failure = await Effect.runPromise(Effect.flip(writeZip(join(dir, "out.zip"), [{ name: "x", path: join(dir, "missing") }], new Date())))
    expect(failure._tag).toBe("TransferFileError")
  })
})

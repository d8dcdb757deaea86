/** The CSV/JSON Lines import's pure parts: the streaming parsers, the file reader, column mapping, rows to records, batching. */
import { describe, expect, it } from "vitest"
import { CsvParser, LineSplitter, parseCsv } from "../../src/screens/import/csv.js"
import { autoMap, Batcher, EXTERNAL_ID, IGNORE, mappingProblems, toRecord } from "../../src/screens/import/mapping.js"
import { formatOf, headerNames, readRows, sample } from "../../src/screens/import/source.js"

const TRICKY = 'id,text,"note, with comma"\r\n1,"He said ""hi""","two\nlines"\r\n2,plain,\n\n3,"",last'

const TRICKY_ROWS = [
  ["id", "text", "note, with comma"],
  ["1", "He said \"hi\"", "two\nlines"],
  ["2", "plain", ""],
  ["3", "", "last"]
]

/** Parses `text` fed in pieces cut at the given positions. */
const parseInPieces = (text: string, cuts: ReadonlyArray<number>) => {
  const parser = new CsvParser()
  const rows: Array<Array<string>> = []
  let from = 0
  for (const cut of [...cuts, text.length]) {
    rows.push(...parser.push(text.slice(from, cut)))
    from = cut
  }
  rows.push(...parser.end())
  return rows
}

describe("CSV parser", () => {
  it("reads quoted fields with commas, doubled quotes and line breaks, CRLF and LF rows, and skips blank lines", () => {
    expect(parseCsv(TRICKY)).toEqual(TRICKY_ROWS)
  })

  it("gives the same rows however the text is cut into chunks (every single cut and every pair of cuts)", () => {
    for (let i = 0; i <= TRICKY.length; i++) {
      expect(parseInPieces(TRICKY, [i])).toEqual(TRICKY_ROWS)
      for (let j = i; j <= TRICKY.length; j += 3) expect(parseInPieces(TRICKY, [i, j])).toEqual(TRICKY_ROWS)
    }
  })

  it("drops a byte-order mark, keeps a quote inside an unquoted field, and ends rows at a lone CR", () => {
    expect(parseCsv("\uFEFFa,b\rx\"y,z\r")).toEqual([["a", "b"], ["x\"y", "z"]])
  })

  it("keeps an empty quoted last field and a trailing empty field", () => {
    expect(parseCsv("a,\"\"\nb,\n")).toEqual([["a", ""], ["b", ""]])
  })

  it("fails at the end of a file left inside quotes", () => {
    const parser = new CsvParser()
    parser.push("a,\"open")
    expect(() => parser.end()).toThrow(/quoted field/)
  })
})

describe("JSON Lines", () => {
  it("splits lines across chunks, LF or CRLF, without blank lines", () => {
    const splitter = new LineSplitter()
    const lines = [...splitter.push("{\"a\":1}\r\n{\"a\""), ...splitter.push(":2}\n\n"), ...splitter.push("{\"a\":3}"), ...splitter.end()]
    expect(lines).toEqual(["{\"a\":1}", "{\"a\":2}", "{\"a\":3}"])
  })
})

describe("reading a file as a stream", () => {
  it("reads a 1 000-row CSV row by row, keyed by the header, with the bytes read reaching the file's size", async () => {
    const text = "text,score\n" + Array.from({ length: 1000 }, (_, i) => `"row ${i}, quoted",${i}`).join("\n") + "\n"
    const file = new Blob([text])
    const rows = []
    for await (const row of readRows(file, "csv")) rows.push(row)
    expect(rows).toHaveLength(1000)
    expect(rows[999]).toMatchObject({ line: 1000, values: { text: "row 999, quoted", score: "999" } })
    expect(rows.at(-1)?.bytesRead).toBe(file.size)
  })

  it("yields a JSON Lines line that is not an object as an error for that line", async () => {
    const file = new Blob(['{"text":"a"}\n[1,2]\nnot json\n{"text":"b","n":2}\n'])
    const rows = []
    for await (const row of readRows(file, "jsonl")) rows.push(row)
    expect(rows.map((r) => ("error" in r ? `error ${r.line}` : r.values["text"]))).toEqual(["a", "error 2", "error 3", "b"])
  })

  it("samples the first rows and the columns (CSV header; JSON Lines keys seen)", async () => {
    const csv = await sample(new Blob(["a,b\n1,2\n3,4\n5,6\n"]), "csv", 2)
    expect(csv.columns).toEqual(["a", "b"])
    expect(csv.rows).toHaveLength(2)
    const jsonl = await sample(new Blob(['{"a":1}\n{"b":2}\n']), "jsonl")
    expect(jsonl.columns).toEqual(["a", "b"])
  })

  it("reads a TSV file by tabs: commas stay inside its cells", async () => {
    const tsv = await sample(new Blob(["text\tlabel\n\"one, two\"\tpos\nthree, four\tneg\n"]), "tsv")
    expect(tsv.columns).toEqual(["text", "label"])
    expect(tsv.rows.map((row) => ("values" in row ? row.values : row.error))).toEqual([
      { text: "one, two", label: "pos" },
      { text: "three, four", label: "neg" }
    ])
  })

  it("tells the format by the file name and makes header names unique and non-empty", () => {
    expect([formatOf("x.csv"), formatOf("x.JSONL"), formatOf("x.ndjson"), formatOf("x.txt"), formatOf("x.TSV")])
      .toEqual(["csv", "jsonl", "jsonl", "csv", "tsv"])
    expect(headerNames(["a", " a ", "", "b"])).toEqual(["a", "a_2", "column_3", "b"])
  })
})

const fields = [
  { name: "text", title: "Review", required: true, settings: { type: "text" as const, use_markdown: false } },
  { name: "chat", title: "Conversation", required: false, settings: { type: "chat" as const, use_markdown: true } },
  { name: "extra", title: "Extra", required: false, settings: { type: "custom" as const, template: "", advanced_mode: false } }
]
const metadata = [
  { name: "stars", title: "Stars", settings: { type: "integer" as const, min: null, max: null } },
  { name: "score", title: "Score", settings: { type: "float" as const, min: null, max: null } },
  { name: "source", title: "Source", settings: { type: "terms" as const, values: null } }
]

describe("column mapping", () => {
  it("maps columns by name (case, spaces and dashes ignored), then by title, and external ids; other columns are ignored", () => {
    expect(autoMap(["TEXT", "Conversation", "stars", "Score", "ID", "unknown"], fields, metadata)).toEqual({
      TEXT: "field:text",
      Conversation: "field:chat",
      stars: "metadata:stars",
      Score: "metadata:score",
      ID: EXTERNAL_ID,
      unknown: IGNORE
    })
  })

  it("gives a target to one column only", () => {
    expect(autoMap(["text", "Text"], fields, metadata)).toEqual({ text: "field:text", Text: IGNORE })
  })

  it("reports a mapping with no field, a required field left out, or two columns on one target", () => {
    expect(mappingProblems({ a: IGNORE }, fields)).toEqual([
      "Map at least one column to a field.",
      "The required field “Review” has no column."
    ])
    expect(mappingProblems({ a: "field:text", b: "field:text" }, fields)).toEqual(["Two columns go to the same place (field text)."])
    expect(mappingProblems({ a: "field:text" }, fields)).toEqual([])
  })
})

describe("a row as a record", () => {
  const mapping = { t: "field:text", c: "field:chat", x: "field:extra", s: "metadata:stars", f: "metadata:score", src: "metadata:source", id: EXTERNAL_ID, skip: IGNORE }

  it("converts CSV cells: text as is, chat and custom parsed as JSON, integers and floats as numbers, empty cells left out", () => {
    const row = { t: "hello", c: '[{"role":"user","content":"hi"}]', x: "{\"k\":1}", s: "4", f: "0.5", src: "web", id: "r-1", skip: "zzz" }
    expect(toRecord(row, mapping, fields, metadata)).toEqual({
      record: {
        fields: { text: "hello", chat: [{ role: "user", content: "hi" }], extra: { k: 1 } },
        metadata: { stars: 4, score: 0.5, source: "web" },
        external_id: "r-1"
      }
    })
    expect(toRecord({ t: "only", c: "", s: " ", id: "" }, mapping, fields, metadata)).toEqual({ record: { fields: { text: "only" } } })
  })

  it("rejects a row whose required field is empty, or whose values do not fit their type, saying why", () => {
    expect(toRecord({ t: "" }, mapping, fields, metadata)).toEqual({ error: "the required field 'text' is empty" })
    expect(toRecord({ t: "a", s: "4.5" }, mapping, fields, metadata)).toEqual({ error: "metadata 'stars' expects an integer, found \"4.5\"" })
    expect(toRecord({ t: "a", f: "many" }, mapping, fields, metadata)).toEqual({ error: "metadata 'score' expects a number, found \"many\"" })
    expect(toRecord({ t: "a", c: "not json" }, mapping, fields, metadata)).toMatchObject({ error: expect.stringContaining("field 'chat'") })
    expect(toRecord({ t: { nested: true } }, mapping, fields, metadata)).toMatchObject({ error: expect.stringContaining("expects text") })
  })

  it("takes JSON values from JSON Lines as they are", () => {
    expect(toRecord({ t: "a", s: 3, f: 2, src: ["a", "b"] }, mapping, fields, metadata)).toEqual({
      record: { fields: { text: "a" }, metadata: { stars: 3, score: 2, source: ["a", "b"] } }
    })
  })
})

describe("batches", () => {
  it("hands out full batches of the given size, then the rest", () => {
    const batcher = new Batcher<number>(500)
    const batches: Array<Array<number>> = []
    for (let i = 0; i < 1234; i++) {
      const full = batcher.add(i)
      if (full !== undefined) batches.push(full)
    }
    const rest = batcher.flush()
    if (rest !== undefined) batches.push(rest)
    expect(batches.map((b) => b.length)).toEqual([500, 500, 234])
    expect(batches.flat()).toEqual(Array.from({ length: 1234 }, (_, i) => i))
    expect(batcher.flush()).toBeUndefined()
  })
})

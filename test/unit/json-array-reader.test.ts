/**
 * The incremental reader of `records.json`: elements come out whole whatever the pieces the file is read
 * in, strings with brackets, quotes and escapes do not confuse it, and a broken array is named as such.
 */
import { describe, expect, it } from "vitest"
import { jsonArrayReader, jsonArrayText } from "../../src/codecs/jsonArray.js"

const readAll = (pieces: ReadonlyArray<string>) => {
  const reader = jsonArrayReader()
  const out: Array<unknown> = []
  for (const piece of pieces) {
    const pushed = reader.push(piece)
    out.push(...pushed.elements.map((text) => JSON.parse(text)))
    if (pushed._tag === "Malformed") return { error: pushed.detail, out }
  }
  const end = reader.end()
  return end === undefined ? { out } : { error: end, out }
}

/** Every split of `text` into pieces of `size` characters. */
const pieces = (text: string, size: number) => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size))

const tricky = [
  { id: "a", fields: { text: "brackets ] } [ { and \"quotes\" and \\ backslash \\\" and ," } },
  { id: "b", fields: { text: "émoji 🎉 and unicode \u2028" }, nested: [[1, [2, { x: [] }]], {}] },
  { id: null, fields: {}, metadata: { n: -1.5e3, t: true, f: false, z: null } }
]

describe("jsonArrayReader", () => {
  it("reads every element whole, whatever the pieces (1 character to all at once)", () => {
    const text = `  \n[ ${tricky.map((value) => JSON.stringify(value, null, 2)).join(" ,\n")} ]\n `
    for (const size of [1, 2, 3, 7, 64, text.length]) {
      expect(readAll(pieces(text, size))).toEqual({ out: tricky })
    }
  })

  it("reads Python's json.dump output and the writer's", () => {
    const writer = jsonArrayText()
    const text = writer.open + writer.elements(tricky.slice(0, 2)) + writer.elements([]) + writer.elements(tricky.slice(2)) + writer.close
    expect(text).toBe(`[${tricky.map((value) => JSON.stringify(value)).join(", ")}]`)
    expect(JSON.parse(text)).toEqual(tricky)
    expect(readAll([text])).toEqual({ out: tricky })
    expect(readAll(["[]"])).toEqual({ out: [] })
  })

  it("names a broken array", () => {
    expect(readAll([""]).error).toBe("the file is empty")
    expect(readAll(['{"a": 1}']).error).toMatch(/^the file is not a JSON array/)
    expect(readAll(['[{"a": 1}, {"b": "]']).error).toBe("the file ends before the array does")
    expect(readAll(['[{"a": 1} {"b": 2}]']).error).toMatch(/^expected ',' or '\]' after record 1/)
    expect(readAll(['[{"a": 1}, ]']).error).toMatch(/^expected a record after record 1/)
    expect(readAll(['[{"a": 1}, 3]']).error).toMatch(/^record 2 is not a JSON object/)
    expect(readAll(['[{"a": 1}] x']).error).toMatch(/^text after the end of the array/)
    // What was read before the break is handed out.
    expect(readAll(['[{"a": 1}, {"b": 2}, 7]']).out).toEqual([{ a: 1 }, { b: 2 }])
  })
})

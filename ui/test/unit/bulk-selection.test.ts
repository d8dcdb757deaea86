/** The bulk view's selection and paging arithmetic, without a browser. */
import { describe, expect, it } from "vitest"
import type { RecordId } from "../../../src/domain/Ids.js"
import {
  allMatching,
  chunks,
  isSelected,
  none,
  pageSelected,
  pageSizeOf,
  rangeLabel,
  selectedCount,
  toggle,
  togglePage
} from "../../src/screens/annotation/bulk/selection.js"

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}` as RecordId
const page = [id(1), id(2), id(3)]

describe("bulk selection", () => {
  it("ticks and unticks single records", () => {
    const one = toggle(none, id(2))
    expect(isSelected(one, id(2))).toBe(true)
    expect(selectedCount(one, 100)).toBe(1)
    expect(isSelected(toggle(one, id(2)), id(2))).toBe(false)
  })

  it("after select all, an untick excludes the record and the count drops from the total", () => {
    const less = toggle(allMatching, id(3))
    expect(less).toEqual({ _tag: "all", exclude: new Set([id(3)]) })
    expect(isSelected(less, id(1))).toBe(true)
    expect(isSelected(less, id(3))).toBe(false)
    expect(selectedCount(less, 30)).toBe(29)
    expect(toggle(less, id(3))).toEqual(allMatching)
  })

  it("select this page adds the page, or removes it when it is all ticked", () => {
    const withPage = togglePage(toggle(none, id(9)), page)
    expect(pageSelected(withPage, page)).toBe(true)
    expect(selectedCount(withPage, 100)).toBe(4)
    expect(selectedCount(togglePage(withPage, page), 100)).toBe(1)
    const allLessPage = togglePage(allMatching, page)
    expect(selectedCount(allLessPage, 30)).toBe(27)
    expect(pageSelected(togglePage(allLessPage, page), page)).toBe(true)
    expect(pageSelected(allMatching, [])).toBe(false)
  })

  it("page sizes are 10, 25, 50 or 100; anything else is 10", () => {
    expect([pageSizeOf("25"), pageSizeOf("100"), pageSizeOf("7"), pageSizeOf(null)]).toEqual([25, 100, 10, 10])
  })

  it("chunks of at most 100, in order", () => {
    const items = Array.from({ length: 201 }, (_, i) => i)
    expect(chunks(items).map((c) => c.length)).toEqual([100, 100, 1])
    expect(chunks(items).flat()).toEqual(items)
    expect(chunks([])).toEqual([])
  })

  it("the range label shows a lower bound as N+", () => {
    expect(rangeLabel(10, 10, 10_000, "gte")).toBe("records 11–20 of 10000+")
    expect(rangeLabel(0, 0, 0, "eq")).toBe("no records of 0")
  })
})

/**
 * What the bulk view has selected, free of I/O so it can be tested on its own: either some records by id (picked
 * one by one or a page at a time), or every record matching the current search and filters, less those deselected
 * afterwards (sent as the apply job's `exclude`).
 */
import type { RecordId } from "../../../../../src/domain/Ids.js"

/** The most records the apply job accepts in `exclude` (`ResponsesApply`). */
export const MAX_EXCLUDE = 1000

/** The most items one `POST /me/responses/bulk` takes. */
export const BULK_CHUNK = 100

export const PAGE_SIZES = [10, 25, 50, 100] as const
export type PageSize = (typeof PAGE_SIZES)[number]

export const pageSizeOf = (raw: string | null): PageSize => PAGE_SIZES.find((size) => String(size) === raw) ?? 10

export type Selection =
  | { readonly _tag: "some"; readonly ids: ReadonlySet<RecordId> }
  | { readonly _tag: "all"; readonly exclude: ReadonlySet<RecordId> }

export const none: Selection = { _tag: "some", ids: new Set() }

export const allMatching: Selection = { _tag: "all", exclude: new Set() }

export const isSelected = (selection: Selection, id: RecordId): boolean =>
  selection._tag === "some" ? selection.ids.has(id) : !selection.exclude.has(id)

const toggled = (set: ReadonlySet<RecordId>, id: RecordId): ReadonlySet<RecordId> => {
  const next = new Set(set)
  if (next.has(id)) next.delete(id)
  else next.add(id)
  return next
}

/** One record's checkbox: after "select all", unticking a record adds it to `exclude`. */
export const toggle = (selection: Selection, id: RecordId): Selection =>
  selection._tag === "some" ? { _tag: "some", ids: toggled(selection.ids, id) } : { _tag: "all", exclude: toggled(selection.exclude, id) }

/** Every record of the page is selected (a page with none is not). */
export const pageSelected = (selection: Selection, page: ReadonlyArray<RecordId>): boolean =>
  page.length > 0 && page.every((id) => isSelected(selection, id))

/** "Select this page": ticks the page's records, or unticks them all when they already are. */
export const togglePage = (selection: Selection, page: ReadonlyArray<RecordId>): Selection => {
  const on = !pageSelected(selection, page)
  if (selection._tag === "some") {
    const ids = new Set(selection.ids)
    for (const id of page) on ? ids.add(id) : ids.delete(id)
    return { _tag: "some", ids }
  }
  const exclude = new Set(selection.exclude)
  for (const id of page) on ? exclude.delete(id) : exclude.add(id)
  return { _tag: "all", exclude }
}

/**
 * How many records are selected, given how many match (`total`, a lower bound when the server stopped counting:
 * then so is the count).
 */
export const selectedCount = (selection: Selection, total: number): number =>
  selection._tag === "some" ? selection.ids.size : Math.max(0, total - selection.exclude.size)

export const isEmpty = (selection: Selection, total: number) => selectedCount(selection, total) === 0

/** `items` cut into runs of at most `size`, in order. */
export const chunks = <A>(items: ReadonlyArray<A>, size = BULK_CHUNK): ReadonlyArray<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** "records 11–20 of 10000+" for a page of `shown` records starting at `offset`. */
export const rangeLabel = (offset: number, shown: number, total: number, relation: "eq" | "gte"): string => {
  const of = relation === "gte" ? `${total}+` : `${total}`
  return shown === 0 ? `no records of ${of}` : `records ${offset + 1}–${offset + shown} of ${of}`
}

/**
 * The bulk view's page in Chromium: selecting records, the page and all matching records (with the confirmation and
 * the deselected records sent as `exclude`), the page size and pager, the span highlights, the writes for
 * selected records cut into calls of at most 100 items, and the apply job's progress.
 */
import { userEvent } from "@vitest/browser/context"
import { useState } from "react"
import { describe, expect, it, vi } from "vitest"
import { render } from "vitest-browser-react"
import type { UserId } from "../../../src/domain/Ids.js"
import type { DatasetRecord } from "../../../src/domain/Record.js"
import { saveRecords } from "../../src/data/bulk.js"
import { BulkPanel, type BulkTarget } from "../../src/screens/annotation/bulk/BulkPanel.js"
import { JobProgress } from "../../src/screens/annotation/bulk/JobProgress.js"
import type { PageSize } from "../../src/screens/annotation/bulk/selection.js"
import { field, label, record, span, suggestion } from "../fixtures.js"

const ME = "90000000-0000-4000-8000-000000000001" as UserId
const fields = [field("text", { type: "text" })]
const sentiment = label("sentiment", true)
const entities = span()
const questions = [sentiment, entities]
const RECORDS = Array.from({ length: 30 }, (_, i) => record({ text: `Review number ${i + 1} from Acme.` }))

type Applied = { readonly target: BulkTarget; readonly status: string; readonly values: unknown }

/** The panel over 30 fixture records, paged as the view pages them, recording what it asks to write. */
const Harness = (props: {
  readonly records?: ReadonlyArray<DatasetRecord>
  readonly total?: number
  readonly relation?: "eq" | "gte"
  readonly applied: Array<Applied>
}) => {
  const all = props.records ?? RECORDS
  const [size, setSize] = useState<PageSize>(10)
  const [offset, setOffset] = useState(0)
  return (
    <BulkPanel
      records={all.slice(offset, offset + size)}
      total={props.total ?? all.length}
      totalRelation={props.relation ?? "eq"}
      offset={offset}
      pageSize={size}
      loading={false}
      fields={fields}
      questions={questions}
      me={ME}
      busy={false}
      itemErrors={{}}
      queryKey="q"
      pageKey={`${offset}:${size}`}
      onPageSize={(next) => {
        setSize(next)
        setOffset(0)
      }}
      onPage={setOffset}
      onApply={async (target, status, values) => {
        props.applied.push({ target, status, values })
        return true
      }}
    />
  )
}

const cards = () => document.querySelectorAll(".bulk-card")

describe("bulk view", () => {
  it("submits the form's answer to exactly the records ticked on the page", async () => {
    const applied: Array<Applied> = []
    const screen = render(<Harness applied={applied} />)
    await screen.getByRole("checkbox", { name: "Select record 2" }).click()
    await screen.getByRole("checkbox", { name: "Select record 5" }).click()
    await expect.element(screen.getByText("2 selected", { exact: true })).toBeVisible()
    await screen.getByRole("radio", { name: /POSITIVE/ }).click()
    await screen.getByRole("button", { name: "Submit" }).click()
    await vi.waitFor(() => expect(applied).toHaveLength(1))
    const [first] = applied
    expect(first?.status).toBe("submitted")
    expect(first?.values).toEqual({ sentiment: { value: "positive" } })
    expect(first?.target._tag === "records" ? first.target.records.map((r) => r.id) : []).toEqual([RECORDS[1]?.id, RECORDS[4]?.id])
    // A successful write clears the selection.
    await expect.element(screen.getByText("0 selected", { exact: true })).toBeVisible()
  })

  it("checks the required questions before a submit, and asks for a selection first", async () => {
    const applied: Array<Applied> = []
    const screen = render(<Harness applied={applied} />)
    await screen.getByRole("button", { name: "Submit" }).click()
    await expect.element(screen.getByRole("alert")).toHaveTextContent("Select at least one record first.")
    await screen.getByRole("checkbox", { name: "Select record 1", exact: true }).click()
    await screen.getByRole("button", { name: "Submit" }).click()
    await expect.element(screen.getByText("This question is required.")).toBeVisible()
    expect(applied).toEqual([])
  })

  it("select this page ticks every record on it, and unticks them again", async () => {
    const screen = render(<Harness applied={[]} />)
    const page = screen.getByRole("checkbox", { name: "Select this page" })
    await page.click()
    await expect.element(screen.getByText("10 selected", { exact: true })).toBeVisible()
    expect(document.querySelectorAll(".bulk-card input:checked")).toHaveLength(10)
    await screen.getByRole("checkbox", { name: "Select record 3" }).click()
    await expect.element(page).not.toBeChecked()
    await page.click()
    await expect.element(page).toBeChecked()
    await page.click()
    await expect.element(screen.getByText("0 selected", { exact: true })).toBeVisible()
  })

  it("page size and pager: 25 records a page, records 26–30 of 30 on the second", async () => {
    const screen = render(<Harness applied={[]} />)
    await expect.element(screen.getByText("records 1–10 of 30")).toBeVisible()
    expect(cards()).toHaveLength(10)
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Records per page" }).element(), "25")
    await expect.element(screen.getByText("records 1–25 of 30")).toBeVisible()
    expect(cards()).toHaveLength(25)
    await expect.element(screen.getByRole("button", { name: "Previous page" })).toBeDisabled()
    await screen.getByRole("button", { name: "Next page" }).click()
    await expect.element(screen.getByText("records 26–30 of 30")).toBeVisible()
    await expect.element(screen.getByRole("button", { name: "Next page" })).toBeDisabled()
  })

  it("a page selection does not follow to the next page", async () => {
    const screen = render(<Harness applied={[]} />)
    await screen.getByRole("checkbox", { name: "Select record 1", exact: true }).click()
    await screen.getByRole("button", { name: "Next page" }).click()
    await expect.element(screen.getByText("records 11–20 of 30")).toBeVisible()
    await expect.element(screen.getByText("0 selected", { exact: true })).toBeVisible()
  })

  it("select all matching asks first when there are more than the page; records deselected after go to exclude", async () => {
    const applied: Array<Applied> = []
    const screen = render(<Harness applied={applied} />)
    await screen.getByRole("button", { name: "Select all 30 matching" }).click()
    const confirm = screen.getByRole("group", { name: "Confirm selecting all matching records" })
    await expect.element(confirm).toHaveTextContent("not only this page")
    await screen.getByRole("button", { name: "Yes, select all 30" }).click()
    await expect.element(screen.getByText("30 selected", { exact: true })).toBeVisible()
    // The selection holds across pages; a record unticked on page 2 is excluded.
    await screen.getByRole("checkbox", { name: "Select record 3" }).click()
    await screen.getByRole("button", { name: "Next page" }).click()
    await expect.element(screen.getByRole("checkbox", { name: "Select record 11" })).toBeChecked()
    await screen.getByRole("checkbox", { name: "Select record 12" }).click()
    await expect.element(screen.getByText("28 selected", { exact: true })).toBeVisible()
    await expect.element(screen.getByText(/less 2 deselected/)).toBeVisible()
    await screen.getByRole("radio", { name: /NEGATIVE/ }).click()
    await screen.getByRole("button", { name: "Save as draft" }).click()
    await vi.waitFor(() => expect(applied).toHaveLength(1))
    expect(applied[0]).toEqual({
      target: { _tag: "all", exclude: [RECORDS[2]?.id, RECORDS[11]?.id], count: 28 },
      status: "draft",
      values: { sentiment: { value: "negative" } }
    })
  })

  it("select all needs no confirmation when the page holds every match", async () => {
    const few = RECORDS.slice(0, 4)
    const screen = render(<Harness records={few} applied={[]} />)
    await screen.getByRole("button", { name: "Select all 4 matching" }).click()
    await expect.element(screen.getByText("4 selected", { exact: true })).toBeVisible()
    await screen.getByRole("button", { name: "Clear selection" }).click()
    await expect.element(screen.getByText("0 selected", { exact: true })).toBeVisible()
  })

  it("past the server's count the total reads 10000+, and cancelling the confirmation selects nothing", async () => {
    const many = render(<Harness applied={[]} total={10_000} relation="gte" />)
    await many.getByRole("button", { name: "Select all 10000+ matching" }).click()
    await many.getByRole("button", { name: "Cancel" }).click()
    await expect.element(many.getByText("records 1–10 of 10000+")).toBeVisible()
    await expect.element(many.getByText("0 selected", { exact: true })).toBeVisible()
  })

  it("span questions stay out of the form (it says why); their answers or suggestions are drawn in label colours", async () => {
    const withSpans = [
      record({ text: "Acme Corp in Paris" }, {
        responses: [{
          id: "80000000-0000-4000-8000-000000000001",
          record_id: "70000000-0000-4000-8000-000000000001",
          values: { entities: { value: [{ label: "LOC", start: 13, end: 18 }] } },
          status: "draft",
          user_id: ME,
          inserted_at: "2026-01-01T00:00:00",
          updated_at: "2026-01-01T00:00:00"
        }]
      }),
      record({ text: "Globex in Oslo" }, { suggestions: [suggestion(entities.id, [{ label: "ORG", start: 0, end: 6 }])] })
    ]
    const screen = render(<Harness records={withSpans} applied={[]} />)
    await expect.element(screen.getByText(/span questions are answered one record at a time/)).toBeVisible()
    expect(screen.getByRole("form").element().querySelector("[aria-label*='span annotator']")).toBeNull()
    const pieces = Array.from(document.querySelectorAll<HTMLElement>(".bulk-span-text [data-labels]"))
    expect(pieces.map((p) => [p.textContent, p.dataset["labels"]])).toEqual([["Paris", "LOC"], ["Globex", "ORG"]])
    // LOC is the question's second option, ORG its first: each drawn in its own label colour.
    expect(pieces[0]?.style.boxShadow).toContain("--label-1")
    expect(pieces[1]?.style.boxShadow).toContain("--label-0")
    await expect.element(screen.getByText(/suggested spans/)).toBeVisible()
  })

  it("expands and collapses a record", async () => {
    const screen = render(<Harness applied={[]} />)
    const expand = screen.getByRole("button", { name: "Expand record 1", exact: true })
    await expect.element(expand).toHaveAttribute("aria-expanded", "false")
    await expand.click()
    await expect.element(screen.getByRole("button", { name: "Collapse record 1", exact: true })).toHaveAttribute("aria-expanded", "true")
  })
})

describe("bulk writes for selected records", () => {
  it("go out in calls of at most 100 items, report each refused item, and keep earlier answers", async () => {
    const drafted = record({ text: "x" }, {
      responses: [{
        id: "80000000-0000-4000-8000-000000000002",
        record_id: "70000000-0000-4000-8000-000000000002",
        values: { entities: { value: [{ label: "ORG", start: 0, end: 1 }] } },
        status: "draft",
        user_id: ME,
        inserted_at: "2026-01-01T00:00:00",
        updated_at: "2026-01-01T00:00:00"
      }]
    })
    const records = [drafted, ...Array.from({ length: 249 }, (_, i) => record({ text: `r${i}` }))]
    const calls: Array<ReadonlyArray<{ readonly record_id: string; readonly values?: unknown }>> = []
    const outcome = await saveRecords(records, ME, "submitted", { sentiment: { value: "positive" } }, async (items) => {
      calls.push(items)
      return { items: items.map((_, i) => ({ error: calls.length === 2 && i === 7 ? { detail: "record is gone" } : null })) }
    })
    expect(calls.map((c) => c.length)).toEqual([100, 100, 50])
    expect(calls.flat().map((i) => i.record_id)).toEqual(records.map((r) => r.id))
    expect(outcome.saved).toBe(249)
    expect(outcome.errors).toEqual([{ recordId: records[107]?.id, detail: "record is gone" }])
    expect(calls[0]?.[0]?.values).toEqual({
      entities: { value: [{ label: "ORG", start: 0, end: 1 }] },
      sentiment: { value: "positive" }
    })
    expect(calls[0]?.[1]?.values).toEqual({ sentiment: { value: "positive" } })
  })

  it("a call that fails outright marks each of its items with the reason", async () => {
    const records = Array.from({ length: 120 }, (_, i) => record({ text: `r${i}` }))
    let n = 0
    const outcome = await saveRecords(records, ME, "draft", { sentiment: { value: "neutral" } }, async (items) => {
      n += 1
      if (n === 2) throw { _tag: "Unprocessable", detail: "dataset is not published" }
      return { items: items.map(() => ({ error: null })) }
    })
    expect(outcome.saved).toBe(100)
    expect(outcome.errors).toHaveLength(20)
    expect(new Set(outcome.errors.map((e) => e.detail))).toEqual(new Set(["dataset is not published"]))
  })
})

describe("apply job progress", () => {
  it("shows done of total, the failures with their reasons, and Close once ended", async () => {
    const closed: Array<boolean> = []
    const running = render(
      <JobProgress running error={undefined} onDismiss={() => closed.push(true)}
        job={{ id: "j1", status: "started", progress: { done: 500, total: 10_000, failed: 0, errors: [] } }} />
    )
    await expect.element(running.getByText("500 of 10000")).toBeVisible()
    expect(running.getByRole("progressbar").element().getAttribute("value")).toBe("500")
    expect(document.querySelector(".bulk-job button")).toBeNull()
    running.unmount()
    const ended = render(
      <JobProgress running={false} error={undefined} onDismiss={() => closed.push(true)}
        job={{ id: "j1", status: "finished", progress: { done: 10_000, total: 10_000, failed: 2, errors: [{ id: "r7", detail: "record r7 was deleted" }] } }} />
    )
    await expect.element(ended.getByRole("heading", { name: "Applied" })).toBeVisible()
    await expect.element(ended.getByText("2 not saved; the first reasons:")).toBeVisible()
    await expect.element(ended.getByText(/record r7 was deleted/)).toBeVisible()
    await ended.getByRole("button", { name: "Close" }).click()
    expect(closed).toEqual([true])
  })
})

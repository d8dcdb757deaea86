/** Review mode's adjudication panel (everyone's answers, picks, keys, final answers) and the team progress table, in Chromium. */
import { userEvent } from "@vitest/browser/context"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { render } from "vitest-browser-react"
import { UserProgress } from "../../../src/domain/Progress.js"
import { DatasetRecord } from "../../../src/domain/Record.js"
import { type FinalAnswerSet, ReviewItem } from "../../../src/domain/Review.js"
import { AdjudicationPanel } from "../../src/screens/annotation/review/AdjudicationPanel.js"
import { TeamProgressTable } from "../../src/screens/team/TeamProgress.js"
import { label, record, span, text } from "../fixtures.js"

const ALICE = "a0000000-0000-4000-8000-000000000001"
const BOB = "a0000000-0000-4000-8000-000000000002"
const CAROL = "a0000000-0000-4000-8000-000000000003"
const UNKNOWN = "a0000000-0000-4000-8000-000000000009"
const names = new Map([[ALICE, "alice"], [BOB, "bob"], [CAROL, "carol"]])
let n = 0

const response = (user: string, status: string, values: Record<string, unknown> | null) => ({
  id: `b0000000-0000-4000-8000-${String(++n).padStart(12, "0")}`,
  values: values === null ? null : Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v }])),
  status,
  record_id: "c0000000-0000-4000-8000-000000000001",
  user_id: user,
  inserted_at: "2026-01-01T00:00:00",
  updated_at: "2026-01-01T00:00:00"
})

const TEXT = "Zoë 👍 at Acme in Paris"

const item = (r: ReturnType<typeof record>, disagreements: ReadonlyArray<string>, agreement: number | null, finalAnswers: ReadonlyArray<unknown> = []) =>
  Schema.decodeUnknownSync(ReviewItem)({
    record: Schema.encodeSync(DatasetRecord)(r),
    agreement,
    disagreements,
    final_answers: finalAnswers
  })

const settled: Array<ReadonlyArray<FinalAnswerSet>> = []
let moved = 0
const panel = (reviewItem: ReviewItem, questions: ReadonlyArray<ReturnType<typeof label>>) =>
  render(
    <AdjudicationPanel
      item={reviewItem}
      questions={questions}
      nameOf={(id) => names.get(id) ?? id}
      onSettle={async (items) => void settled.push(items)}
      onUnsettle={async () => undefined}
      onNext={() => void moved++}
      onPrevious={() => undefined}
    />
  )

describe("adjudication panel", () => {
  it("shows each annotator's submitted answer with its key, marks the disputed question, and counts no blank answer", async () => {
    const sentiment = label()
    const entities = span()
    const comment = text()
    const r = record({ text: TEXT }, {
      responses: [
        response(ALICE, "submitted", { sentiment: "positive", entities: [{ label: "ORG", start: 9, end: 13 }], comment: "Nice" }),
        response(BOB, "submitted", { sentiment: "negative", entities: [{ label: "ORG", start: 9, end: 13 }] }),
        response(UNKNOWN, "draft", { sentiment: "neutral" })
      ]
    })
    const screen = panel(item(r, ["sentiment"], 0.5), [sentiment, entities, comment])
    await expect.element(screen.getByTestId("record-agreement")).toHaveTextContent("Agreement: 50 %. Disagreement on Sentiment.")
    const disputed = screen.getByRole("region", { name: /Sentiment/ })
    await expect.element(disputed).toHaveTextContent("Disagreement")
    await expect.element(disputed).toHaveTextContent("2 submitted answers, not all the same.")
    await expect.element(disputed.getByRole("radio", { name: /alice/ })).toHaveAccessibleDescription("POSITIVE")
    await expect.element(disputed.getByRole("radio", { name: /bob/ })).toHaveAccessibleDescription("NEGATIVE")
    // The draft is named apart, not offered as an answer.
    await expect.element(disputed).toHaveTextContent(`Not counted: ${UNKNOWN} (draft)`)
    expect(disputed.getByRole("radio", { name: UNKNOWN }).elements()).toHaveLength(0)
    // Spans by label and covered text (code points: the emoji is one), agreed.
    const spans = screen.getByRole("region", { name: /Entities/ })
    await expect.element(spans).toHaveTextContent("All 2 submitted answers agree.")
    await expect.element(spans).toHaveTextContent("ORG “Acme”")
    // Bob left the comment blank: one answer, nothing compared, and no "1 of 1 agree".
    const blank = screen.getByRole("region", { name: /Comment/ })
    await expect.element(blank).toHaveTextContent("One submitted answer: nothing to compare it with.")
    expect(blank.element().textContent).not.toMatch(/agree/)
    expect(blank.getByRole("radio", { name: /bob/ }).elements()).toHaveLength(0)
  })

  it("picks bob's answer with 2 on the disputed question, writes a note with N, and settles with Enter", async () => {
    settled.length = 0
    const sentiment = label()
    const comment = text()
    const r = record({ text: TEXT }, {
      responses: [
        response(ALICE, "submitted", { sentiment: "positive", comment: "Nice" }),
        response(BOB, "submitted", { sentiment: "negative", comment: "Nice" })
      ]
    })
    const screen = panel(item(r, ["sentiment"], 0.5), [comment, sentiment])
    const disputed = screen.getByRole("region", { name: /Sentiment/ })
    // The disputed question has the focus to start with, though it comes second.
    await expect.element(disputed).toHaveClass(/active/)
    await userEvent.keyboard("2")
    await expect.element(disputed.getByRole("radio", { name: /bob/ })).toHaveAttribute("aria-checked", "true")
    await userEvent.keyboard("n")
    await expect.element(disputed.getByRole("textbox", { name: /Note/ })).toHaveFocus()
    await userEvent.keyboard("Sarcasm")
    await userEvent.keyboard("{Escape}")
    await userEvent.keyboard("{Enter}")
    await expect.poll(() => settled.length).toBe(1)
    expect(settled[0]).toEqual([
      { question: "comment", value: "Nice", source: "response", source_user_id: ALICE, note: null },
      { question: "sentiment", value: "negative", source: "response", source_user_id: BOB, note: "Sarcasm" }
    ])
  })

  it("an own answer starts from the answer picked: spans marked in the field's text, settled as the reviewer's", async () => {
    settled.length = 0
    const entities = span()
    const r = record({ text: TEXT }, {
      responses: [
        response(ALICE, "submitted", { entities: [{ label: "ORG", start: 9, end: 13 }] }),
        response(BOB, "submitted", { entities: [{ label: "LOC", start: 17, end: 22 }] })
      ]
    })
    const screen = panel(item(r, ["entities"], 0), [entities])
    await userEvent.keyboard("1")
    await userEvent.keyboard("o")
    const own = screen.getByRole("radiogroup", { name: "Your answer to Entities" })
    await expect.element(own.getByRole("radio", { name: "ORG" })).toHaveAttribute("aria-checked", "true")
    // The span editor shows alice's span, to keep or change.
    await expect.element(screen.getByText("Acme", { exact: true })).toBeVisible()
    await screen.getByRole("button", { name: /Settle/ }).click()
    await expect.poll(() => settled.length).toBe(1)
    expect(settled[0]).toEqual([
      { question: "entities", value: [{ label: "ORG", start: 9, end: 13 }], source: "reviewer", source_user_id: null, note: null }
    ])
  })

  it("shows a settled question's final answer with who settled it, from what, and the note", async () => {
    const sentiment = label()
    const r = record({ text: TEXT }, {
      responses: [response(ALICE, "submitted", { sentiment: "positive" }), response(BOB, "submitted", { sentiment: "negative" })]
    })
    const final = {
      record_id: r.id,
      question: "sentiment",
      value: "neutral",
      source: "reviewer",
      source_user_id: null,
      note: "Neither, really",
      settled_by: CAROL,
      inserted_at: "2026-01-02T10:00:00",
      updated_at: "2026-01-02T10:00:00"
    }
    const screen = panel(item(r, ["sentiment"], 0, [final]), [sentiment])
    const box = screen.getByRole("group", { name: "Final answer to Sentiment" })
    await expect.element(box).toHaveTextContent(/settled by carol from the reviewer’s own answer/)
    await expect.element(box).toHaveTextContent("NEUTRAL")
    await expect.element(box).toHaveTextContent("Note: Neither, really")
    await expect.element(box.getByRole("button", { name: /Unsettle/ })).toBeVisible()
    // Settled: nothing picked until the reviewer picks again, and Enter moves on without writing.
    expect(screen.getByRole("radio", { checked: true }).elements()).toHaveLength(0)
    settled.length = 0
    moved = 0
    await userEvent.keyboard("{Enter}")
    await expect.poll(() => moved).toBe(1)
    expect(settled).toEqual([])
  })
})

const progress = (username: string, completed: [number, number, number], pending: [number, number, number]) =>
  Schema.decodeUnknownSync(UserProgress)({
    username,
    completed: { submitted: completed[0], draft: completed[1], discarded: completed[2] },
    pending: { submitted: pending[0], draft: pending[1], discarded: pending[2] }
  })

const rowNames = (table: HTMLElement) => Array.from(table.querySelectorAll("tbody th")).map((th) => th.textContent)

describe("team progress table", () => {
  const users = [progress("alice", [3, 0, 1], [1, 2, 0]), progress("bob", [2, 0, 0], [0, 0, 3]), progress("carol", [5, 1, 0], [0, 0, 0])]

  it("lists each annotator's counts split by record status, most submitted first", async () => {
    const screen = render(<TeamProgressTable users={users} records={10} />)
    const table = screen.getByRole("table")
    await expect.element(table).toBeVisible()
    expect(rowNames(table.element() as HTMLElement)).toEqual(["carol", "alice", "bob"])
    const alice = screen.getByRole("row", { name: /alice/ }).element()
    const cells = Array.from(alice.querySelectorAll("td")).map((td) =>
      `${td.querySelector(".team-count")?.textContent}: ${td.querySelector(".team-split")?.textContent}`
    )
    expect(cells).toEqual(["4: 3 completed · 1 pending", "2: 0 completed · 2 pending", "1: 1 completed · 0 pending"])
    await expect.element(screen.getByRole("columnheader", { name: /Submitted/ })).toHaveAttribute("aria-sort", "descending")
  })

  it("sorts by any column from its header button, by keyboard too", async () => {
    const screen = render(<TeamProgressTable users={users} records={10} />)
    const table = screen.getByRole("table").element() as HTMLElement
    await screen.getByRole("button", { name: /Discarded/ }).click()
    expect(rowNames(table)).toEqual(["bob", "alice", "carol"])
    await expect.element(screen.getByRole("columnheader", { name: /Discarded/ })).toHaveAttribute("aria-sort", "descending")
    await screen.getByRole("button", { name: /Discarded/ }).click()
    expect(rowNames(table)).toEqual(["carol", "alice", "bob"])
    const annotator = screen.getByRole("button", { name: /Annotator/ })
    ;(annotator.element() as HTMLElement).focus()
    await userEvent.keyboard("{Enter}")
    expect(rowNames(table)).toEqual(["alice", "bob", "carol"])
    await expect.element(screen.getByRole("columnheader", { name: /Annotator/ })).toHaveAttribute("aria-sort", "ascending")
  })

  it("says so when nobody has answered yet", async () => {
    const screen = render(<TeamProgressTable users={[]} records={10} />)
    await expect.element(screen.getByText("No one has answered a record of this dataset yet.")).toBeVisible()
  })
})

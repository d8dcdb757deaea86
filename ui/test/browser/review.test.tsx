/** Review mode's panel (every annotator's answers, disagreement marked) and the team progress table, in Chromium. */
import { userEvent } from "@vitest/browser/context"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { render } from "vitest-browser-react"
import { UserProgress } from "../../../src/domain/Progress.js"
import { ReviewPanel } from "../../src/screens/annotation/review/ReviewPanel.js"
import { TeamProgressTable } from "../../src/screens/team/TeamProgress.js"
import { label, ranking, record, span, text } from "../fixtures.js"

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

const questions = [label(), span(), ranking(), text()]
const TEXT = "Zoë 👍 at Acme in Paris"

describe("review panel", () => {
  it("shows each annotator's answers and marks the question they disagree on, with the agreeing count", async () => {
    const r = record({ text: TEXT }, {
      responses: [
        response(ALICE, "submitted", {
          sentiment: "positive",
          entities: [{ label: "ORG", start: 9, end: 13 }, { label: "LOC", start: 17, end: 22 }],
          order: [{ value: "y", rank: 1 }, { value: "x", rank: 2 }],
          comment: "Nice"
        }),
        response(BOB, "submitted", {
          sentiment: "negative",
          entities: [{ label: "LOC", start: 17, end: 22 }, { label: "ORG", start: 9, end: 13 }],
          order: [{ value: "y", rank: 1 }, { value: "x", rank: 3 }],
          comment: " Nice "
        }),
        response(CAROL, "submitted", { sentiment: "positive" }),
        response(UNKNOWN, "draft", { sentiment: "neutral" })
      ]
    })
    const screen = render(<ReviewPanel record={r} questions={questions} names={names} />)
    const sentiment = screen.getByRole("region", { name: /Sentiment/ })
    await expect.element(sentiment).toHaveTextContent("Disagreement")
    await expect.element(sentiment).toHaveTextContent("2 of 3 submitted answers agree")
    // Option texts, who answered what; the draft is shown but not counted; an unknown user shows as their id.
    await expect.element(sentiment).toHaveTextContent(/alice\s*POSITIVE/)
    await expect.element(sentiment).toHaveTextContent(/bob\s*differs\s*NEGATIVE/)
    await expect.element(sentiment).toHaveTextContent(`${UNKNOWN} (draft, not counted)NEUTRAL`)

    // Spans are listed as label and covered text (code points: the emoji counts as one), and agree as sets.
    const entities = screen.getByRole("region", { name: /Entities/ })
    await expect.element(entities).not.toHaveTextContent("Disagreement")
    await expect.element(entities).toHaveTextContent("2 of 2 submitted answers agree")
    await expect.element(entities).toHaveTextContent("ORG “Acme”")
    await expect.element(entities).toHaveTextContent("LOC “Paris”")
    // Ranking by order, text trimmed: no disagreement either.
    await expect.element(screen.getByRole("region", { name: /Order/ })).toHaveTextContent("Agreement")
    await expect.element(screen.getByRole("region", { name: /Comment/ })).toHaveTextContent("2 of 2 submitted answers agree")
    await expect.element(screen.getByText("1 question has a disagreement.")).toBeVisible()
    await expect.element(screen.getByRole("list", { name: "Response status by annotator" })).toHaveTextContent(
      /alice\s*submitted\s*bob\s*submitted\s*carol\s*submitted/
    )
  })

  it("says when nobody has answered, and marks no disagreement", async () => {
    const screen = render(<ReviewPanel record={record({ text: TEXT }, { responses: [] })} questions={questions} names={names} />)
    await expect.element(screen.getByText("No one has answered this record yet.")).toBeVisible()
    expect(screen.container.textContent).not.toContain("Disagreement")
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

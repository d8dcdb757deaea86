/**
 * The span editor in Chromium: real DOM selections over text with emoji and combining characters, snapping,
 * Shift for characters, the keyboard cursor, and overlap. Offsets out are code points, as the server counts.
 */
import { userEvent } from "@vitest/browser/context"
import { useState } from "react"
import { describe, expect, it } from "vitest"
import { render } from "vitest-browser-react"
import type { Span } from "../../src/screens/annotation/span/offsets.js"
import { SpanEditor } from "../../src/screens/annotation/span/SpanEditor.js"

const LABELS = [{ value: "ORG", text: "Org", color: 0 }, { value: "LOC", text: "Loc", color: 1 }]

const Editor = (props: { readonly text: string; readonly overlap?: boolean; readonly label?: string; readonly initial?: ReadonlyArray<Span> }) => {
  const [spans, setSpans] = useState<ReadonlyArray<Span>>(props.initial ?? [])
  return (
    <>
      <SpanEditor text={props.text} spans={spans} labels={LABELS} activeLabel={props.label ?? "ORG"}
        allowOverlapping={props.overlap ?? false} title="Review" onChange={setSpans} />
      <output data-testid="spans">{JSON.stringify(spans)}</output>
    </>
  )
}

/** Selects UTF-16 `[start, end)` of the editor's text as a mouse drag would, then releases the button. */
const select = (start: number, end: number, shiftKey = false) => {
  const root = document.querySelector<HTMLElement>(".span-text")
  if (root === null) throw new Error("no editor")
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
  const at = (offset: number): [Node, number] => {
    let seen = 0
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const length = node.textContent?.length ?? 0
      if (offset <= seen + length) return [node, offset - seen]
      seen += length
    }
    throw new Error(`offset ${offset} out of range`)
  }
  const range = document.createRange()
  range.setStart(...at(start))
  walker.currentNode = root
  range.setEnd(...at(end))
  const selection = window.getSelection()
  selection?.removeAllRanges()
  selection?.addRange(range)
  root.dispatchEvent(new MouseEvent("mouseup", { bubbles: true, shiftKey }))
}

const spansOf = (screen: ReturnType<typeof render>) =>
  JSON.parse(screen.getByTestId("spans").element().textContent ?? "[]") as ReadonlyArray<Span>

describe("span editor", () => {
  const text = "Great 👍🏽 service from Zoë at Acme Corp in Paris."

  it("a selection after an emoji is sent in code points, snapped to the whole token", async () => {
    const screen = render(<Editor text={text} />)
    const acme = text.indexOf("Acme")
    select(acme + 1, acme + 3) // "cm"
    await expect.poll(() => spansOf(screen)).toEqual([{ label: "ORG", start: acme - 2, end: acme - 2 + 4 }])
    await expect.element(screen.getByText("Acme")).toHaveAttribute("data-labels", "ORG")
  })

  it("Shift selects characters, never half an emoji", async () => {
    const screen = render(<Editor text={text} />)
    const acme = text.indexOf("Acme")
    select(acme + 1, acme + 3, true)
    await expect.poll(() => spansOf(screen)).toEqual([{ label: "ORG", start: acme - 2 + 1, end: acme - 2 + 3 }])
    const emoji = text.indexOf("👍")
    select(emoji + 1, emoji + 2, true)
    await expect.poll(() => spansOf(screen)[0]).toEqual({ label: "ORG", start: 6, end: 8 })
  })

  it("counts a combining accent as a code point", async () => {
    const cafe = "Cafe\u0301 Lumière in Lyon"
    const screen = render(<Editor text={cafe} label="LOC" />)
    const lyon = cafe.indexOf("Lyon")
    select(lyon, lyon + 2)
    await expect.poll(() => spansOf(screen)).toEqual([{ label: "LOC", start: Array.from(cafe.slice(0, lyon)).length, end: Array.from(cafe.slice(0, lyon)).length + 4 }])
    select(1, 3)
    await expect.poll(() => spansOf(screen)[0]).toEqual({ label: "LOC", start: 0, end: 5 })
  })

  it("overlapping spans are kept when allowed, drawn on separate lines, and replaced when not", async () => {
    const initial = [{ label: "LOC", start: 0, end: 5 }]
    const allowed = render(<Editor text="Hello world again" overlap initial={initial} />)
    select(0, 11)
    await expect.poll(() => spansOf(allowed)).toEqual([{ label: "LOC", start: 0, end: 5 }, { label: "ORG", start: 0, end: 11 }])
    const piece = document.querySelector<HTMLElement>(".span-piece")
    expect(piece?.style.boxShadow.split("var(--label-").length).toBe(3) // two lanes
    allowed.unmount()
    const refused = render(<Editor text="Hello world again" initial={initial} />)
    select(0, 11)
    await expect.poll(() => spansOf(refused)).toEqual([{ label: "ORG", start: 0, end: 11 }])
  })

  it("marks and removes spans with the keyboard only", async () => {
    const screen = render(<Editor text={text} />)
    const editor = screen.getByRole("application")
    await editor.click()
    // Cursor: Great → 👍🏽 → service; Shift extends to "from".
    await userEvent.keyboard("{ArrowRight}{ArrowRight}{ArrowRight}{Shift>}{ArrowRight}{/Shift}{Enter}")
    await expect.poll(() => spansOf(screen)).toEqual([{ label: "ORG", start: 9, end: 21 }])
    await userEvent.keyboard("{Delete}")
    await expect.poll(() => spansOf(screen)).toEqual([])
    // Alt moves by character: the emoji with its skin tone is one step.
    await userEvent.keyboard("{ArrowLeft}{ArrowLeft}{ArrowLeft}{Alt>}{ArrowRight}{/Alt}{Enter}")
    await expect.poll(() => spansOf(screen)).toEqual([{ label: "ORG", start: 6, end: 8 }])
  })

  // How fast, in the built app: `npm run bench -- ui`.
  it("works with 50 000 characters and 200 spans", async () => {
    const long = "lorem ipsum dolor sit amet ".repeat(1852).slice(0, 50_000)
    const spans = Array.from({ length: 200 }, (_, i) => ({ label: i % 2 === 0 ? "ORG" : "LOC", start: i * 240, end: i * 240 + 11 }))
    const screen = render(<Editor text={long} overlap initial={spans} />)
    await expect.element(screen.getByRole("application")).toBeVisible()
    expect(document.querySelectorAll(".span-piece[data-labels]").length).toBe(200)
    select(48_010, 48_020)
    await expect.poll(() => spansOf(screen).length).toBe(201)
    expect(spansOf(screen)).toContainEqual({ label: "ORG", start: 48_006, end: 48_023 }) // snapped to whole words
  })
})

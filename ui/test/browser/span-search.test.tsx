/**
 * The text search's words are marked in a field that a span question annotates, as in any other text field, and the
 * marks change nothing of span selection: offsets still count the field's raw text, in code points.
 */
import { useState } from "react"
import { afterEach, describe, expect, it } from "vitest"
import { render } from "vitest-browser-react"
import { RecordCard } from "../../src/screens/annotation/RecordCard.js"
import type { Span } from "../../src/screens/annotation/span/offsets.js"
import { dataset, field, record, span } from "../fixtures.js"
import { withQueries } from "./withQueries.js"

const TEXT = "Great 👍🏽 service from Zoë at Acme Corp in Paris, acme again."

afterEach(() => window.history.replaceState(null, "", window.location.pathname))

/** Selects UTF-16 `[start, end)` of the editor's text as a mouse drag would, then releases the button. */
const select = (root: HTMLElement, start: number, end: number) => {
  const at = (offset: number): [Node, number] => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
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
  range.setEnd(...at(end))
  const selection = window.getSelection()
  selection?.removeAllRanges()
  selection?.addRange(range)
  root.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }))
}

/** The record card as the workspace uses it, holding the span question's value and showing it. */
const Card = () => {
  // Made once: fresh fixtures on every render would give the field a new key and remount the editor.
  const [{ f, q, r }] = useState(() => ({ f: field("text", { type: "text" }), q: span(), r: record({ text: TEXT }) }))
  const [values, setValues] = useState<Readonly<Record<string, unknown>>>({})
  return (
    <>
      <RecordCard
        record={r}
        fields={[f]}
        questions={[q]}
        values={values}
        spanLabels={{ [q.name]: "ORG" }}
        status="pending"
        position="1"
        editorRefs={{ current: {} }}
        onChange={(name, value) => setValues((current) => ({ ...current, [name]: value }))}
        onEditorFocus={() => undefined}
        onEditorLeave={() => undefined}
      />
      <output data-testid="spans">{JSON.stringify(values[q.name] ?? [])}</output>
    </>
  )
}

describe("search words in a span-annotated field", () => {
  it("are marked, and a selection across a mark stores code-point offsets of the raw text", async () => {
    window.history.replaceState(null, "", `${window.location.pathname}?_search=Acme`)
    const screen = render(withQueries(dataset().id, <Card />))
    const editor = screen.getByRole("application")
    await expect.element(editor).toHaveTextContent(TEXT)
    const root = editor.element() as HTMLElement
    const marks = () => Array.from(root.querySelectorAll("mark.search-hit"), (m) => m.textContent)
    await expect.poll(marks).toEqual(["Acme", "acme"])

    // Dragged from inside "Acme" to inside "Corp": snapped to both tokens. After an emoji of two code points
    // (four UTF-16 units), code point offsets are two less than UTF-16 ones.
    const acme = TEXT.indexOf("Acme")
    select(root, acme + 1, acme + 7)
    const spans = () => JSON.parse(screen.getByTestId("spans").element().textContent ?? "[]") as ReadonlyArray<Span>
    await expect.poll(spans).toEqual([{ label: "ORG", start: acme - 2, end: acme - 2 + "Acme Corp".length }])

    // The span is drawn and the word still marked inside it; the editor's text is still the raw text.
    await expect.poll(() => root.querySelector(".span-piece mark.search-hit")?.textContent).toBe("Acme")
    expect(marks()).toEqual(["Acme", "acme"])
    expect(root.textContent).toBe(TEXT)

    // A second selection, after the span and its mark, still counts from the start of the raw text.
    const paris = TEXT.indexOf("Paris")
    select(root, paris, paris + 5)
    await expect.poll(spans).toEqual([
      { label: "ORG", start: acme - 2, end: acme - 2 + "Acme Corp".length },
      { label: "ORG", start: paris - 2, end: paris - 2 + 5 }
    ])
  })
})

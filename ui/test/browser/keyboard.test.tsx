/** The annotation form driven by keys only: the shortcut map as a user meets it. */
import { userEvent } from "@vitest/browser/context"
import { describe, expect, it, vi } from "vitest"
import { render } from "vitest-browser-react"
import { RecordWorkspace } from "../../src/screens/annotation/RecordWorkspace.js"
import { dataset, field, label, record, span, text } from "../fixtures.js"
import { withQueries } from "./withQueries.js"

describe("keyboard", () => {
  it("picks, moves between questions, types without firing shortcuts, and changes record", async () => {
    const questions = [label("sentiment", true), text(), span(true)]
    const onNext = vi.fn()
    const onPrevious = vi.fn()
    const onHelp = vi.fn()
    const onUndo = vi.fn()
    const screen = render(withQueries(
      dataset().id,
      <RecordWorkspace
        dataset={dataset()}
        fields={[field("text", { type: "text" })]}
        questions={questions}
        record={record({ text: "Zoë 👍🏽 works at Acme in Paris." })}
        me={undefined}
        position="1"
        onSaved={() => undefined}
        onNext={onNext}
        onPrevious={onPrevious}
        onHelp={onHelp}
        onUndo={onUndo}
      />
    ))
    const negative = screen.getByRole("radio", { name: /NEGATIVE/ })
    await expect.element(negative).toHaveAttribute("aria-keyshortcuts", "2")
    await userEvent.keyboard("2")
    await expect.element(negative).toHaveAttribute("aria-checked", "true")

    // Down to the text question, into its box; digits and arrows are text there.
    await userEvent.keyboard("{ArrowDown}{Shift>}{Enter}{/Shift}")
    const box = screen.getByRole("textbox")
    await expect.element(box).toHaveFocus()
    await userEvent.keyboard("1{ArrowRight}{Backspace}3?")
    await expect.element(box).toHaveValue("3?")
    await expect.element(negative).toHaveAttribute("aria-checked", "true")
    expect(onNext).not.toHaveBeenCalled()
    expect(onHelp).not.toHaveBeenCalled()
    await userEvent.keyboard("{Escape}")
    await expect.element(box).not.toHaveFocus()

    // Down to the span question: 3 picks its third label; Shift+Enter enters the text; Enter marks a token.
    await userEvent.keyboard("{ArrowDown}3{Shift>}{Enter}{/Shift}")
    await expect.element(screen.getByRole("application")).toHaveFocus()
    await userEvent.keyboard("{ArrowRight}{Enter}{Escape}")
    await expect.element(screen.getByRole("list", { name: /Spans of/ })).toHaveTextContent(/PER\s+Zoë/)

    await userEvent.keyboard("?")
    expect(onHelp).toHaveBeenCalledTimes(1)
    await userEvent.keyboard("{ArrowRight}{ArrowLeft}")
    expect(onNext).toHaveBeenCalledTimes(1)
    expect(onPrevious).toHaveBeenCalledTimes(1)
    await userEvent.keyboard("{Control>}z{/Control}")
    expect(onUndo).toHaveBeenCalledTimes(1)
  })

  it("shows per-question errors instead of sending an incomplete submit", async () => {
    const screen = render(withQueries(
      dataset().id,
      <RecordWorkspace
        dataset={dataset()}
        fields={[field("text", { type: "text" })]}
        questions={[label("sentiment", true), text()]}
        record={record({ text: "x" })}
        me={undefined}
        position="1"
        onSaved={() => undefined}
        onNext={() => undefined}
        onPrevious={() => undefined}
        onHelp={() => undefined}
        onUndo={() => undefined}
      />
    ))
    await userEvent.keyboard("{Enter}")
    await expect.element(screen.getByRole("alert")).toHaveTextContent("This question is required.")
    await userEvent.keyboard("1")
    await expect.element(screen.getByRole("alert")).not.toBeInTheDocument()
  })
})

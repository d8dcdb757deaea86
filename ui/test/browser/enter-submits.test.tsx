/**
 * Enter submits the record whatever option has focus: a mouse click leaves the focus on the option it picked, and
 * Enter must not press that option again (which toggled it off or re-picked it) instead of submitting.
 */
import { userEvent } from "@vitest/browser/context"
import { afterEach, describe, expect, it, vi } from "vitest"
import { render } from "vitest-browser-react"
import type { Question } from "../../../src/domain/Question.js"
import { RecordWorkspace } from "../../src/screens/annotation/RecordWorkspace.js"
import { dataset, field, label, multi, ranking, rating, record, text } from "../fixtures.js"
import { withQueries } from "./withQueries.js"

/** What the server was sent: the stubbed `fetch` answers a response create as the server would. */
const stubServer = () => {
  const sent: Array<{ readonly url: string; readonly body: unknown }> = []
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    const body = request.method === "GET" ? undefined : await request.json()
    sent.push({ url: request.url, body })
    const recordId = /records\/([^/]+)\/responses/.exec(request.url)?.[1] ?? ""
    const saved = {
      id: "30000000-0000-4000-8000-000000000001",
      values: (body as { values?: unknown } | undefined)?.values ?? null,
      status: (body as { status?: unknown } | undefined)?.status ?? "submitted",
      record_id: recordId,
      user_id: "40000000-0000-4000-8000-000000000001",
      inserted_at: "2026-01-01T00:00:00",
      updated_at: "2026-01-01T00:00:00"
    }
    return new Response(JSON.stringify(saved), { status: 201, headers: { "content-type": "application/json" } })
  })
  return sent
}

afterEach(() => void vi.unstubAllGlobals())

const workspace = (questions: ReadonlyArray<Question>, onSaved: () => void) =>
  withQueries(
    dataset().id,
    <RecordWorkspace
      dataset={dataset()}
      fields={[field("text", { type: "text" })]}
      questions={questions}
      record={record({ text: "Fine product." })}
      me={undefined}
      position="1"
      onSaved={onSaved}
      onNext={() => undefined}
      onPrevious={() => undefined}
      onHelp={() => undefined}
      onUndo={() => undefined}
    />
  )

const responseCreates = (sent: ReadonlyArray<{ readonly url: string; readonly body: unknown }>) =>
  sent.filter((s) => /\/api\/v1\/records\/[^/]+\/responses$/.test(s.url)).map((s) => s.body)

describe("Enter after a mouse click", () => {
  const cases = [
    { kind: "single-label", question: label("sentiment"), role: "radio", name: /NEGATIVE/, value: "negative" },
    { kind: "multi-label", question: multi(), role: "checkbox", name: "B", value: ["b"] },
    { kind: "rating", question: rating(), role: "radio", name: "4", value: 4 }
  ] as const

  for (const c of cases) {
    it(`submits the ${c.kind} option just clicked, selected`, async () => {
      const sent = stubServer()
      const onSaved = vi.fn()
      const screen = render(workspace([c.question], onSaved))
      const option = screen.getByRole(c.role, { name: c.name })
      await option.click()
      await expect.element(option).toHaveAttribute("aria-checked", "true")
      await expect.element(option).toHaveFocus()
      await userEvent.keyboard("{Enter}")
      await expect.poll(() => onSaved.mock.calls.length).toBe(1)
      await expect.element(option).toHaveAttribute("aria-checked", "true")
      expect(responseCreates(sent)).toEqual([
        { status: "submitted", values: { [c.question.name]: { value: c.value } } }
      ])
    })
  }

  it("submits a rank just chosen, with the focus still on its list", async () => {
    const sent = stubServer()
    const onSaved = vi.fn()
    const screen = render(workspace([ranking()], onSaved))
    for (const [name, rank] of [["X", "2"], ["Z", "3"], ["Y", "1"]] as const) {
      await userEvent.selectOptions(screen.getByRole("combobox", { name }).element(), rank)
    }
    const select = screen.getByRole("combobox", { name: "Y" }).element() as HTMLElement
    select.focus()
    await userEvent.keyboard("{Enter}")
    await expect.poll(() => onSaved.mock.calls.length).toBe(1)
    expect(responseCreates(sent)).toEqual([{
      status: "submitted",
      values: { order: { value: [{ value: "x", rank: 2 }, { value: "y", rank: 1 }, { value: "z", rank: 3 }] } }
    }])
  })

  it("still types a newline in a text answer, and the action buttons still press themselves", async () => {
    const sent = stubServer()
    const onSaved = vi.fn()
    const screen = render(workspace([label("sentiment"), text()], onSaved))
    await screen.getByRole("radio", { name: /POSITIVE/ }).click()
    const box = screen.getByRole("textbox")
    await box.click()
    await userEvent.keyboard("one{Enter}two")
    await expect.element(box).toHaveValue("one\ntwo")
    expect(onSaved).not.toHaveBeenCalled()
    // Enter on the focused "Save draft" button saves a draft, as a button does, not a submit.
    const draft = screen.getByRole("button", { name: /Save draft/ }).element() as HTMLElement
    draft.focus()
    await userEvent.keyboard("{Enter}")
    await expect.poll(() => onSaved.mock.calls.length).toBe(1)
    expect(responseCreates(sent)).toEqual([
      { status: "draft", values: { sentiment: { value: "positive" }, comment: { value: "one\ntwo" } } }
    ])
  })
})

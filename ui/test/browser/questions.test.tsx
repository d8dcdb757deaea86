/** Every question kind, rendered in Chromium and driven like a user would, by mouse and by keyboard. */
import { userEvent } from "@vitest/browser/context"
import { useState } from "react"
import { describe, expect, it } from "vitest"
import { render } from "vitest-browser-react"
import type { Question } from "../../../src/domain/Question.js"
import { Choice } from "../../src/screens/annotation/questions/Choice.js"
import { Ranking } from "../../src/screens/annotation/questions/Ranking.js"
import { SpanLabels } from "../../src/screens/annotation/questions/SpanLabels.js"
import { TextAnswer } from "../../src/screens/annotation/questions/TextAnswer.js"
import { label, multi, ranking, rating, record, span, suggestion, text } from "../fixtures.js"

/** Holds the value like the form does, and shows it for assertions. */
const Harness = (props: { readonly question: Question; readonly initial?: unknown; readonly withSuggestion?: unknown }) => {
  const [value, setValue] = useState<unknown>(props.initial)
  const s = props.withSuggestion === undefined
    ? undefined
    : record({}, { suggestions: [suggestion(props.question.id, props.withSuggestion, 0.75)] }).suggestions?.[0]
  const common = { question: props.question, value, suggestion: s, labelledBy: "title", onChange: setValue }
  const kind = props.question.settings.type
  return (
    <div>
      <h3 id="title">{props.question.title}</h3>
      {kind === "text" ? <TextAnswer {...common} /> : null}
      {kind === "ranking" ? <Ranking {...common} /> : null}
      {kind === "label_selection" || kind === "multi_label_selection" || kind === "rating" ? <Choice {...common} /> : null}
      <output data-testid="value">{JSON.stringify(value ?? null)}</output>
    </div>
  )
}

describe("question kinds", () => {
  it("label: one option at a time, marked with the suggestion's agent and score", async () => {
    const screen = render(<Harness question={label()} withSuggestion="negative" />)
    await expect.element(screen.getByRole("radio", { name: /NEGATIVE/ })).toHaveAccessibleName(/Suggested by test-model · 0.75/)
    await screen.getByRole("radio", { name: /POSITIVE/ }).click()
    await expect.element(screen.getByRole("radio", { name: /POSITIVE/ })).toHaveAttribute("aria-checked", "true")
    await screen.getByRole("radio", { name: /NEUTRAL/ }).click()
    await expect.element(screen.getByRole("radio", { name: /POSITIVE/ })).toHaveAttribute("aria-checked", "false")
    await expect.element(screen.getByTestId("value")).toHaveTextContent('"neutral"')
    await expect.element(screen.getByRole("radio", { name: /NEUTRAL/ })).toHaveAttribute("aria-keyshortcuts", "3")
  })

  it("multi-label: several options, toggled", async () => {
    const screen = render(<Harness question={multi()} />)
    await screen.getByRole("checkbox", { name: "A" }).click()
    await screen.getByRole("checkbox", { name: "C" }).click()
    await expect.element(screen.getByTestId("value")).toHaveTextContent('["a","c"]')
    await screen.getByRole("checkbox", { name: "A" }).click()
    await expect.element(screen.getByTestId("value")).toHaveTextContent('["c"]')
  })

  it("rating: the values as options", async () => {
    const screen = render(<Harness question={rating()} />)
    await screen.getByRole("radio", { name: "4" }).click()
    await expect.element(screen.getByTestId("value")).toHaveTextContent("4")
  })

  it("ranking: a rank per option, chosen with the keyboard", async () => {
    const screen = render(<Harness question={ranking()} />)
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Y" }).element(), "1")
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "X" }).element(), "2")
    await expect.element(screen.getByTestId("value")).toHaveTextContent(
      '[{"value":"x","rank":2},{"value":"y","rank":1},{"value":"z","rank":null}]'
    )
    await screen.getByRole("button", { name: "Clear ranks" }).click()
    await expect.element(screen.getByTestId("value")).toHaveTextContent("null")
  })

  it("text: typed answer", async () => {
    const screen = render(<Harness question={text()} />)
    await userEvent.type(screen.getByRole("textbox"), "Fine")
    await expect.element(screen.getByTestId("value")).toHaveTextContent('"Fine"')
    await userEvent.fill(screen.getByRole("textbox"), "Fine 👍")
    await expect.element(screen.getByTestId("value")).toHaveTextContent('"Fine 👍"')
  })

  it("span: label picker and the list of spans with their text and a remove button", async () => {
    const q = span()
    const Spans = () => {
      const [value, setValue] = useState<unknown>([{ label: "ORG", start: 10, end: 14 }])
      const [active, setActive] = useState("ORG")
      const source = "Zoë 👍🏽 at Acme."
      const cp = Array.from(source)
      return (
        <>
          <h3 id="title">Entities</h3>
          <SpanLabels question={q} value={value} suggestion={undefined} labelledBy="title" activeLabel={active}
            onLabel={setActive} onChange={setValue} onEnter={() => undefined}
            excerpt={(s) => cp.slice(s.start, s.end).join("")} />
          <output data-testid="value">{JSON.stringify(value ?? null)}</output>
          <output data-testid="label">{active}</output>
        </>
      )
    }
    const screen = render(<Spans />)
    await expect.element(screen.getByRole("list", { name: /Spans of/ })).toHaveTextContent("Acme")
    await screen.getByRole("radio", { name: "LOC" }).click()
    await expect.element(screen.getByTestId("label")).toHaveTextContent("LOC")
    await screen.getByRole("button", { name: /Remove ORG/ }).click()
    await expect.element(screen.getByTestId("value")).toHaveTextContent("null")
  })
})

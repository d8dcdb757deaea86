/**
 * Dataset settings and the import, as components with a stand-in for the server: label wording and order (moved by
 * keyboard) saved as one PATCH body, the server's messages beside the input they are about, the guidelines' preview,
 * the delete dialog's name check, and a CSV's columns mapped, previewed and sent in batches with a final report.
 */
import { userEvent } from "@vitest/browser/context"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { render } from "vitest-browser-react"
import { Dataset } from "../../../src/domain/Dataset.js"
import { Unprocessable, ValidationError } from "../../../src/domain/Errors.js"
import { Field } from "../../../src/domain/Field.js"
import { MetadataProperty } from "../../../src/domain/MetadataProperty.js"
import type { QuestionUpdate } from "../../../src/domain/Question.js"
import { type ImportRecord } from "../../src/screens/import/mapping.js"
import { ImportFlow } from "../../src/screens/import/ImportRecords.js"
import { DangerZone } from "../../src/screens/settings/DangerZone.js"
import { GeneralSection } from "../../src/screens/settings/GeneralSection.js"
import { QuestionsSection } from "../../src/screens/settings/QuestionsSection.js"
import { label, ranking } from "../fixtures.js"

const AT = "2026-01-01T00:00:00"
const DATASET = "10000000-0000-4000-8000-000000000000"

const dataset = Schema.decodeUnknownSync(Dataset)({
  id: DATASET,
  name: "reviews",
  guidelines: "Be kind",
  allow_extra_metadata: true,
  status: "ready",
  distribution: { strategy: "overlap", min_submitted: 1 },
  metadata: null,
  workspace_id: "20000000-0000-4000-8000-000000000000",
  last_activity_at: AT,
  inserted_at: AT,
  updated_at: AT
})

const field = Schema.decodeUnknownSync(Field)({
  id: "40000000-0000-4000-8000-000000000001",
  name: "text",
  title: "Review",
  required: true,
  settings: { type: "text" },
  dataset_id: DATASET,
  inserted_at: AT,
  updated_at: AT
})

const stars = Schema.decodeUnknownSync(MetadataProperty)({
  id: "30000000-0000-4000-8000-000000000001",
  name: "stars",
  title: "Stars",
  settings: { type: "integer" },
  visible_for_annotators: true,
  dataset_id: DATASET,
  inserted_at: AT,
  updated_at: AT
})

describe("question settings", () => {
  it("rewords a label and moves another up by keyboard, then saves both in one PATCH body", async () => {
    const sent: Array<QuestionUpdate> = []
    const screen = render(<QuestionsSection questions={[label()]} save={async (_, update) => void sent.push(update)} />)
    const positive = screen.getByLabelText("Text of option positive")
    await userEvent.clear(positive)
    await userEvent.type(positive, "Good")
    const up = screen.getByRole("button", { name: "Move NEUTRAL up" })
    const upButton = up.element()
    if (upButton instanceof HTMLElement) upButton.focus()
    await userEvent.keyboard("{Enter}")
    // The focus follows the moved option.
    expect(document.activeElement?.getAttribute("aria-label")).toBe("Move NEUTRAL up")
    await userEvent.keyboard("{Enter}")
    // At the top its "up" button is disabled, so the focus moves to its "down" button.
    expect(document.activeElement?.getAttribute("aria-label")).toBe("Move NEUTRAL down")
    const items = Array.from(screen.container.querySelectorAll(".option-row code")).map((c) => c.textContent)
    expect(items).toEqual(["neutral", "positive", "negative"])
    await screen.getByRole("button", { name: "Save" }).click()
    await expect.element(screen.getByRole("status")).toHaveTextContent("Saved")
    expect(sent).toEqual([{
      settings: {
        type: "label_selection",
        options: [
          { value: "neutral", text: "NEUTRAL", description: null },
          { value: "positive", text: "Good", description: null },
          { value: "negative", text: "NEGATIVE", description: null }
        ]
      }
    }])
  })

  it("shows the server's validation message beside the input it names, and a refusal with the form", async () => {
    let answer: unknown = new ValidationError({ errors: [{ loc: ["body", "title"], msg: "String should have at most 500 characters", type: "string_too_long" }] })
    const screen = render(<QuestionsSection questions={[label()]} save={() => Promise.reject(answer)} />)
    await userEvent.type(screen.getByLabelText("Title"), "!")
    await screen.getByRole("button", { name: "Save" }).click()
    await expect.element(screen.getByText("String should have at most 500 characters")).toBeVisible()
    await expect.element(screen.getByLabelText("Title")).toHaveAttribute("aria-invalid", "true")
    await expect.element(screen.getByLabelText("Title")).toHaveAccessibleDescription("String should have at most 500 characters")
    answer = new Unprocessable({ detail: "The options of a question can only be reworded or reordered" })
    await screen.getByRole("button", { name: "Save" }).click()
    await expect.element(screen.getByRole("alert")).toHaveTextContent("can only be reworded or reordered")
  })

  it("shows ranking options read-only, with no move buttons", async () => {
    const screen = render(<QuestionsSection questions={[ranking()]} save={async () => undefined} />)
    await expect.element(screen.getByText("Ranking options cannot change once created:")).toBeVisible()
    expect(screen.container.querySelectorAll("[data-move]")).toHaveLength(0)
  })
})

describe("general settings", () => {
  it("previews the guidelines as rendered markdown and saves them with min_submitted", async () => {
    const sent: Array<unknown> = []
    const screen = render(<GeneralSection dataset={dataset} save={async (update) => void sent.push(update)} />)
    const text = screen.getByLabelText("Guidelines (markdown)")
    await userEvent.clear(text)
    await userEvent.type(text, "# Rules{Enter}{Enter}Be **brief**.")
    await screen.getByRole("button", { name: "Preview" }).click()
    const preview = screen.getByRole("region", { name: "Guidelines preview" })
    await expect.element(preview.getByRole("heading", { name: "Rules" })).toBeVisible()
    expect(preview.element().querySelector("strong")?.textContent).toBe("brief")
    const min = screen.getByLabelText(/min_submitted/)
    await userEvent.clear(min)
    await userEvent.type(min, "2")
    await screen.getByRole("button", { name: "Save" }).click()
    await expect.element(screen.getByRole("status")).toHaveTextContent("Saved")
    expect(sent).toEqual([{ guidelines: "# Rules\n\nBe **brief**.", distribution: { strategy: "overlap", min_submitted: 2 } }])
  })

  it("refuses a min_submitted below 1 before sending anything", async () => {
    const screen = render(<GeneralSection dataset={dataset} save={async () => undefined} />)
    const min = screen.getByLabelText(/min_submitted/)
    await userEvent.clear(min)
    await userEvent.type(min, "0")
    await expect.element(screen.getByText("Enter a whole number, 1 or more.")).toBeVisible()
    await expect.element(screen.getByRole("button", { name: "Save" })).toBeDisabled()
  })
})

describe("danger zone", () => {
  it("deletes only once the dataset's name is typed", async () => {
    let deleted = 0
    let left = 0
    const screen = render(<DangerZone name="reviews" remove={async () => void (deleted += 1)} onDeleted={() => void (left += 1)} />)
    await screen.getByRole("button", { name: "Delete dataset" }).click()
    const confirm = screen.getByRole("button", { name: "Delete this dataset" })
    await expect.element(confirm).toBeDisabled()
    await userEvent.type(screen.getByLabelText(/Type the dataset's name/), "review")
    await expect.element(confirm).toBeDisabled()
    await userEvent.type(screen.getByLabelText(/Type the dataset's name/), "s")
    await confirm.click()
    expect([deleted, left]).toEqual([1, 1])
  })
})

/** Puts `file` in a file input as a user's pick would (the browser's own FileList, then a change event). */
const pickFile = (input: Element, file: File) => {
  if (!(input instanceof HTMLInputElement)) throw new Error("not an input")
  const transfer = new DataTransfer()
  transfer.items.add(file)
  input.files = transfer.files
  input.dispatchEvent(new Event("change", { bubbles: true }))
}

describe("import", () => {
  const csv = (rows: number) =>
    new File(["Review,stars,id,ignored\n" + Array.from({ length: rows }, (_, i) => `"text ${i}, quoted",${i % 5},r${i},x`).join("\n")], "reviews.csv", { type: "text/csv" })

  it("maps columns by name, previews records, and sends 1 200 rows in batches of 500 with a final report", async () => {
    const batches: Array<ReadonlyArray<ImportRecord>> = []
    const screen = render(<ImportFlow fields={[field]} metadata={[stars]} send={async (records) => void batches.push(records)} />)
    pickFile(screen.getByLabelText(/CSV \(with a header row\)/).element(), csv(1200))
    await expect.element(screen.getByLabelText("Review", { exact: true })).toHaveValue("field:text")
    await expect.element(screen.getByLabelText("stars")).toHaveValue("metadata:stars")
    await expect.element(screen.getByLabelText("id")).toHaveValue("external_id")
    await expect.element(screen.getByLabelText("ignored")).toHaveValue("")
    const preview = screen.getByRole("region", { name: "Preview of the first records" })
    await expect.element(preview).toHaveTextContent("text 0, quoted")
    await screen.getByRole("button", { name: "Import records" }).click()
    await expect.element(screen.getByRole("status")).toHaveTextContent("Finished. 1200 rows read (100% of the file): 1200 imported, 0 rejected.")
    expect(batches.map((b) => b.length)).toEqual([500, 500, 200])
    expect(batches[0]?.[1]).toEqual({ fields: { text: "text 1, quoted" }, metadata: { stars: 1 }, external_id: "r1" })
    await expect.element(screen.getByRole("progressbar", { name: "Import progress" })).toHaveAttribute("value", "100")
  })

  it("reports rows it cannot turn into records and batches the server refuses, with the server's reason and the row", async () => {
    const file = new File(["text,stars\na,1\nb,not-a-number\nc,3\n"], "bad.csv")
    const screen = render(
      <ImportFlow
        fields={[field]}
        metadata={[stars]}
        send={() => Promise.reject(new ValidationError({ errors: [{ loc: ["body", "items", 1, "fields"], msg: "text is too long", type: "x" }] }))}
      />
    )
    pickFile(screen.getByLabelText(/CSV \(with a header row\)/).element(), file)
    await screen.getByRole("button", { name: "Import records" }).click()
    await expect.element(screen.getByRole("status")).toHaveTextContent("3 rows read (100% of the file): 0 imported, 3 rejected.")
    await expect.element(screen.getByText("Row 2: metadata 'stars' expects an integer, found \"not-a-number\"")).toBeVisible()
    await expect.element(screen.getByText(/Rows 1–3 \(2 rows, sent together\): row 3: items.1.fields: text is too long/)).toBeVisible()
  })

  it("will not import while a required field has no column", async () => {
    const screen = render(<ImportFlow fields={[field]} metadata={[]} send={async () => undefined} />)
    pickFile(screen.getByLabelText(/CSV \(with a header row\)/).element(), new File(["body\nhello\n"], "x.csv"))
    await expect.element(screen.getByText("The required field “Review” has no column.")).toBeVisible()
    await expect.element(screen.getByRole("button", { name: "Import records" })).toBeDisabled()
    await userEvent.selectOptions(screen.getByLabelText("body").element(), "field:text")
    await expect.element(screen.getByRole("button", { name: "Import records" })).toBeEnabled()
  })
})

/**
 * The control panel's sort, response and suggestion filters, chips and find-similar banner, over data already in
 * the query cache (no server); and search words marked in read-only fields.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query"
import { userEvent } from "@vitest/browser/context"
import { Schema } from "effect"
import type { ReactNode } from "react"
import { describe, expect, it } from "vitest"
import { render } from "vitest-browser-react"
import { DatasetId, RecordId } from "../../../src/domain/Ids.js"
import { MetadataProperty } from "../../../src/domain/MetadataProperty.js"
import type { MetadataMetrics } from "../../../src/domain/Search.js"
import { VectorSettings } from "../../../src/domain/VectorSettings.js"
import {
  metadataMetrics,
  metadataProperties,
  myProgress,
  questions as questionsQuery,
  suggestionAgents,
  vectorSettings
} from "../../src/data/queries.js"
import type { QueueQuery } from "../../src/data/search.js"
import { ControlPanel } from "../../src/screens/annotation/ControlPanel.js"
import { FieldValue } from "../../src/screens/annotation/fields/FieldView.js"
import { field, label, rating, record, text } from "../fixtures.js"

const DATASET = Schema.decodeSync(DatasetId)("10000000-0000-4000-8000-000000000000")
const RECORD = Schema.decodeSync(RecordId)("40000000-0000-4000-8000-000000000001")
const sentiment = label()
const quality = rating()

const length = Schema.decodeUnknownSync(MetadataProperty)({
  id: "30000000-0000-4000-8000-000000000001",
  name: "length",
  title: "Length",
  settings: { type: "integer", min: null, max: null },
  visible_for_annotators: true,
  dataset_id: DATASET,
  inserted_at: "2026-01-01T00:00:00",
  updated_at: "2026-01-01T00:00:00"
})

const cached = () => {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } })
  client.setQueryData(myProgress(DATASET).queryKey, { total: 4, pending: 3, draft: 0, submitted: 1, discarded: 0 })
  client.setQueryData(metadataProperties(DATASET).queryKey, [length])
  const lengthMetrics: MetadataMetrics = { type: "integer", min: 1, max: 9 }
  client.setQueryData(metadataMetrics(length.id).queryKey, lengthMetrics)
  client.setQueryData(questionsQuery(DATASET).queryKey, [sentiment, quality, text()])
  client.setQueryData(suggestionAgents(DATASET).queryKey, [
    { question: { id: sentiment.id, name: "sentiment" }, agents: ["model-a", "model-b"] },
    { question: { id: quality.id, name: "quality" }, agents: [] }
  ])
  client.setQueryData(vectorSettings(DATASET).queryKey, [
    Schema.decodeUnknownSync(VectorSettings)({
      id: "50000000-0000-4000-8000-000000000001",
      name: "embedding",
      title: "Sentence embedding",
      dimensions: 3,
      dataset_id: DATASET,
      inserted_at: "2026-01-01T00:00:00",
      updated_at: "2026-01-01T00:00:00"
    })
  ])
  return client
}

const panel = (query: QueueQuery) => {
  const changes: Array<QueueQuery> = []
  const wrap = (node: ReactNode) => <QueryClientProvider client={cached()}>{node}</QueryClientProvider>
  const screen = render(wrap(<ControlPanel datasetId={DATASET} query={query} onChange={(q) => changes.push(q)} />))
  return { screen, changes }
}

const base: QueueQuery = { queue: "pending", text: "", metadata: {} }

describe("control panel: sort and filters", () => {
  it("adds a sort key and flips its order", async () => {
    const { changes, screen } = panel(base)
    await screen.getByText("Sort", { exact: true }).click()
    await userEvent.selectOptions(screen.getByLabelText("Sort by").element(), "metadata.length")
    await screen.getByRole("button", { name: "Add sort" }).click()
    expect(changes.at(-1)?.sort).toEqual([{ key: { kind: "metadata", name: "length" }, order: "asc" }])

    const sorted = panel({ ...base, sort: [{ key: { kind: "record", property: "inserted_at" }, order: "asc" }] })
    await sorted.screen.getByText("Sort (1)").click()
    await userEvent.selectOptions(sorted.screen.getByLabelText("Order of Inserted time").element(), "desc")
    expect(sorted.changes.at(-1)?.sort).toEqual([{ key: { kind: "record", property: "inserted_at" }, order: "desc" }])
  })

  it("filters by suggestion agent and score range, and by my own answer", async () => {
    const { changes, screen } = panel(base)
    await screen.getByText("Suggestions", { exact: true }).click()
    await screen.getByRole("checkbox", { name: "model-b" }).click()
    const score = screen.getByRole("group", { name: "Score" })
    await score.getByLabelText("From").fill("0.5")
    await screen.getByRole("button", { name: "Apply suggestion filters" }).click()
    expect(changes.at(-1)?.suggestions).toEqual({ sentiment: { agents: ["model-b"], score: { ge: 0.5 } } })

    await screen.getByText("My responses", { exact: true }).click()
    const answers = screen.getByRole("group", { name: "Quality" })
    await answers.getByRole("checkbox", { name: "4" }).click()
    await answers.getByRole("checkbox", { name: "5" }).click()
    await screen.getByRole("button", { name: "Apply response filters" }).click()
    expect(changes.at(-1)?.responses).toEqual({ quality: { kind: "terms", values: [4, 5] } })
  })

  it("shows active sort and filters as chips that remove exactly their part", async () => {
    const { changes, screen } = panel({
      ...base,
      queue: "submitted",
      recordStatus: "completed",
      responses: { sentiment: { kind: "terms", values: ["positive"] } },
      suggestions: { sentiment: { agents: ["model-a"], score: { ge: 0.5, le: 1 } } },
      sort: [{ key: { kind: "metadata", name: "length" }, order: "desc" }]
    })
    const chips = screen.getByRole("list", { name: "Active sort and filters" })
    await expect.element(chips.getByText("Sort: Metadata: Length ↓")).toBeVisible()
    await expect.element(chips.getByText("Record status: completed")).toBeVisible()
    await chips.getByRole("button", { name: "Remove Suggestion agent, Sentiment: model-a" }).click()
    expect(changes.at(-1)?.suggestions).toEqual({ sentiment: { score: { ge: 0.5, le: 1 } } })
    expect(changes.at(-1)?.responses).toEqual({ sentiment: { kind: "terms", values: ["positive"] } })
  })

  it("offers a record status beside the queue except in Pending", async () => {
    const submitted = panel({ ...base, queue: "submitted" })
    await userEvent.selectOptions(submitted.screen.getByLabelText("Record status").element(), "completed")
    expect(submitted.changes.at(-1)?.recordStatus).toBe("completed")
    const pending = panel(base)
    expect(pending.screen.container.querySelector(".queues")).not.toBeNull()
    expect(pending.screen.container.querySelector(".record-status")).toBeNull()
  })

  it("while showing similar records, names the vector, switches most/least and goes back to the queue", async () => {
    const { changes, screen } = panel({ ...base, similar: { recordId: RECORD, vector: "embedding", order: "most_similar" } })
    await expect.element(screen.getByText(/by Sentence embedding/)).toBeVisible()
    await userEvent.selectOptions(screen.getByLabelText("Similarity order").element(), "least_similar")
    expect(changes.at(-1)?.similar?.order).toBe("least_similar")
    await screen.getByRole("button", { name: "Back to the queue" }).click()
    expect(changes.at(-1)?.similar).toBeUndefined()
  })
})

describe("search highlighting in fields", () => {
  it("marks the search's words in plain and markdown text, leaving the text itself unchanged", async () => {
    const plain = field("text", { type: "text", use_markdown: false })
    const markdown = field("body", { type: "text", use_markdown: true })
    const r = record({ text: "A Rocket, rockets and a rocket.", body: "**Rocket** launch: see the _rocket_ <b>now</b>" })
    const screen = render(
      <>
        <FieldValue field={plain} record={r} highlight="rocket" />
        <FieldValue field={markdown} record={r} highlight="rocket" />
      </>
    )
    await expect.element(screen.getByText("Rocket", { exact: true }).first()).toBeVisible()
    const marks = Array.from(screen.container.querySelectorAll("mark")).map((m) => m.textContent)
    expect(marks).toEqual(["Rocket", "rocket", "Rocket", "rocket"])
    expect(screen.container.querySelector(".field-text")?.textContent).toBe("A Rocket, rockets and a rocket.")
    expect(screen.container.querySelector(".markdown strong mark")?.textContent).toBe("Rocket")
  })

  it("moves the marks when the search changes and drops them when it is cleared", async () => {
    const markdown = field("body", { type: "text", use_markdown: true })
    const r = record({ body: "alpha beta gamma" })
    const screen = render(<FieldValue field={markdown} record={r} highlight="alpha" />)
    await expect.element(screen.getByText("alpha")).toBeVisible()
    await screen.rerender(<FieldValue field={markdown} record={r} highlight="gamma" />)
    expect(Array.from(screen.container.querySelectorAll("mark")).map((m) => m.textContent)).toEqual(["gamma"])
    await screen.rerender(<FieldValue field={markdown} record={r} highlight="" />)
    expect(screen.container.querySelectorAll("mark")).toHaveLength(0)
    expect(screen.container.textContent?.trim()).toBe("alpha beta gamma")
  })
})

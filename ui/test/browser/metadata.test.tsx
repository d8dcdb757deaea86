/** A record's metadata under its fields: declared properties by title, in order, then other keys; nothing when empty. */
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { render } from "vitest-browser-react"
import { MetadataProperty } from "../../../src/domain/MetadataProperty.js"
import { RecordMetadata } from "../../src/screens/annotation/RecordMetadata.js"

const property = (name: string, title: string, settings: unknown, id: string) =>
  Schema.decodeUnknownSync(MetadataProperty)({
    id,
    name,
    title,
    settings,
    visible_for_annotators: true,
    dataset_id: "10000000-0000-4000-8000-000000000000",
    inserted_at: "2026-01-01T00:00:00",
    updated_at: "2026-01-01T00:00:00"
  })

const properties = [
  property("source", "Source", { type: "terms", values: null }, "30000000-0000-4000-8000-000000000001"),
  property("stars", "Stars", { type: "integer", min: null, max: null }, "30000000-0000-4000-8000-000000000002")
]

describe("record metadata", () => {
  it("shows declared properties by title in the dataset's order, then other keys", async () => {
    const screen = render(
      <RecordMetadata metadata={{ batch: { day: 3 }, stars: 4, source: ["web", "forum"], unset: null }} properties={properties} />
    )
    const region = screen.getByRole("region", { name: "Metadata" })
    await expect.element(region).toBeVisible()
    const terms = Array.from(region.element().querySelectorAll("dt")).map((dt) => dt.textContent)
    const values = Array.from(region.element().querySelectorAll("dd")).map((dd) => dd.textContent)
    expect(terms).toEqual(["Source", "Stars", "batch"])
    expect(values).toEqual(["web, forum", "4", "{\"day\":3}"])
  })

  it("renders nothing for a record without metadata", () => {
    const none = render(<RecordMetadata metadata={null} properties={properties} />)
    expect(none.container.textContent).toBe("")
    const empty = render(<RecordMetadata metadata={{ stars: null }} properties={properties} />)
    expect(empty.container.textContent).toBe("")
  })
})

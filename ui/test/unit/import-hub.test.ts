/** The importer's Hub tab: its form as the request of `POST /datasets/{id}/import`, or what is wrong with it. */
import { describe, expect, it } from "vitest"
import { hubRequest } from "../../src/screens/import/hubRequest.js"

const fields = [
  { name: "text", title: "Text", required: true },
  { name: "notes", title: "Notes", required: false }
]
const form = { name: " org/reviews ", subset: "default", split: "train", columns: {}, externalId: "" }

describe("the Hub tab's request", () => {
  it("maps typed columns to fields, metadata and suggestions, trimmed, and leaves empty ones and the external id out", () => {
    const columns = { "field:text": " review ", "field:notes": "", "metadata:stars": "stars", "suggestion:sentiment": "label" }
    expect(hubRequest({ ...form, columns }, fields)).toEqual({
      request: {
        name: "org/reviews",
        subset: "default",
        split: "train",
        mapping: {
          fields: [{ source: "review", target: "text" }],
          metadata: [{ source: "stars", target: "stars" }],
          suggestions: [{ source: "label", target: "sentiment" }]
        }
      }
    })
    expect(hubRequest({ ...form, columns: { "field:text": "review" }, externalId: "uid" }, fields)).toMatchObject({
      request: { mapping: { fields: [{ source: "review", target: "text" }], external_id: "uid" } }
    })
  })

  it("says what is wrong: a repo id that is not owner/name, a bad split, no field, a required field left out", () => {
    expect(hubRequest({ ...form, name: "reviews", split: "a/b", columns: { "field:notes": "n" } }, fields)).toEqual({
      problems: [
        "The repo id is a Hub dataset's “owner/name”.",
        "The split is 1 to 128 letters, digits, “-”, “_” or “.”.",
        "The required field “Text” has no column."
      ]
    })
    expect(hubRequest(form, [])).toEqual({ problems: ["Give the column of at least one field."] })
  })
})

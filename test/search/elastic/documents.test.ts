import { describe, expect, it } from "@effect/vitest"
import { ResponseId } from "../../../src/domain/Ids.js"
import { toDocument } from "../../../src/services/search/elastic/documents.js"
import { OTHER_USER, Q, RECORD, record, schema, USER, VECTOR } from "./fixtures.js"

const RESPONSE = ResponseId.make("77777777-7777-4777-8777-777777777777")

describe("the document of a record", () => {
  it("holds every kind of value where the mapping expects it", () => {
    const full = record(RECORD, {
      external_id: "ext-1",
      status: "completed",
      updated_at: new Date("2026-02-03T04:05:06.000Z"),
      fields: {
        text: "The quick brown fox",
        picture: "https://example.com/fox.png",
        chat: [{ role: "user", content: "hi", extra: 1 }, { role: "assistant", content: "hello" }],
        widget: { x: 1, y: [2, 3] },
        undeclared: "dropped"
      },
      metadata: { source: "web", tags: ["a", "b"], length: 19, quality: 0.5, secret: "dropped", absent: null },
      responses: [
        {
          id: RESPONSE,
          user_id: USER,
          status: "submitted",
          values: {
            comment: { value: "nice" },
            rating: { value: 3 },
            status: { value: "good" },
            topics: { value: ["a", "c"] },
            ranking: { value: [{ value: "x", rank: 1 }] },
            entities: { value: [{ label: "PER", start: 0, end: 3 }] },
            removed_question: { value: "dropped" }
          }
        },
        { id: "88888888-8888-4888-8888-888888888888", user_id: OTHER_USER, status: "draft", values: null }
      ],
      suggestions: [
        { question_id: Q.label, value: "bad", score: 0.9, agent: "model-1", type: "model" },
        { question_id: Q.topics, value: ["a", "b"], score: [0.8, 0.4], agent: null, type: null }
      ],
      vectors: { [VECTOR]: [0.1, 0.2, 0.3], "99999999-9999-4999-8999-999999999999": [1, 2] }
    })
    expect(toDocument(schema, full)).toEqual({
      id: RECORD,
      external_id: "ext-1",
      status: "completed",
      inserted_at: "2026-01-02T03:04:05.678Z",
      updated_at: "2026-02-03T04:05:06.000Z",
      fields: {
        text: "The quick brown fox",
        picture: null,
        chat: [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }],
        widget: "{\"x\":1,\"y\":[2,3]}"
      },
      metadata: { source: "web", tags: ["a", "b"], length: 19, quality: 0.5 },
      responses: [
        {
          id: RESPONSE,
          user_id: USER,
          status: "submitted",
          values: {
            comment: "nice",
            rating: 3,
            status: "good",
            topics: ["a", "c"],
            ranking: [{ value: "x", rank: 1 }],
            entities: [{ label: "PER", start: 0, end: 3 }]
          }
        },
        { id: "88888888-8888-4888-8888-888888888888", user_id: OTHER_USER, status: "draft", values: {} }
      ],
      suggestions: {
        status: { value: "bad", score: 0.9, agent: "model-1", type: "model" },
        topics: { value: ["a", "b"], score: [0.8, 0.4], agent: null, type: null }
      },
      vectors: { [VECTOR]: [0.1, 0.2, 0.3] }
    })
  })

  it("leaves out missing values, and keeps a custom value that is already a string as it is", () => {
    const sparse = record(RECORD, { fields: { widget: "plain" }, metadata: null })
    expect(toDocument(schema, sparse)).toMatchObject({
      fields: { widget: "plain" },
      metadata: {},
      responses: [],
      suggestions: {},
      vectors: {}
    })
  })
})

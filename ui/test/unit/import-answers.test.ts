/**
 * The import's suggestions, responses and vectors: a cell read per question kind, scores and vectors, the record a row
 * becomes with them, the server's checks run on it in the browser (options, rating range, dimensions, required
 * questions of a submitted response, metadata ranges), the mapping's new problems, and the tally of rejected rows.
 */
import { describe, expect, it } from "vitest"
import { UserId } from "../../../src/domain/Ids.js"
import { parseAnswer, parseScore, parseVector } from "../../src/screens/import/answers.js"
import {
  agentTarget,
  autoMap,
  IGNORE,
  mappingProblems,
  responseTarget,
  scoreTarget,
  suggestionTarget,
  toRecord,
  vectorTarget
} from "../../src/screens/import/mapping.js"
import { EMPTY_TALLY, MAX_LISTED, tallyRow } from "../../src/screens/import/validate.js"
import { label, multi, ranking, rating, span, text } from "../fixtures.js"

const sentiment = label("sentiment", true)
const topics = multi()
const quality = rating()
const order = ranking()
const comment = text()
const entities = span()
const questions = [sentiment, topics, quality, order, comment, entities]

const fields = [{ name: "text", title: "Text", required: true, settings: { type: "text" as const, use_markdown: false } }]
const metadata = [{ name: "stars", title: "Stars", settings: { type: "integer" as const, min: 1, max: 5 } }]
const vectorSettings = [{ name: "emb", title: "Embedding", dimensions: 3 }]
const USER = UserId.make("30000000-0000-4000-8000-000000000001")

describe("a cell as an answer, per question kind", () => {
  it("label: the option's value, trimmed; text: as it is", () => {
    expect(parseAnswer(sentiment.settings, " positive ")).toEqual({ value: "positive" })
    expect(parseAnswer(comment.settings, "  kept as is ")).toEqual({ value: "  kept as is " })
    expect(parseAnswer(comment.settings, 12)).toEqual({ value: "12" })
  })

  it("multi label: a JSON list or comma-separated labels; a list from JSON Lines as it is", () => {
    expect(parseAnswer(topics.settings, "a, b")).toEqual({ value: ["a", "b"] })
    expect(parseAnswer(topics.settings, '["a","c"]')).toEqual({ value: ["a", "c"] })
    expect(parseAnswer(topics.settings, ["b"])).toEqual({ value: ["b"] })
    expect(parseAnswer(topics.settings, "[a, b")).toMatchObject({ error: expect.stringContaining("JSON list or comma-separated") })
  })

  it("rating: a number; text that is not one is kept for the check to name", () => {
    expect(parseAnswer(quality.settings, " 4 ")).toEqual({ value: 4 })
    expect(parseAnswer(quality.settings, "four")).toEqual({ value: "four" })
  })

  it("ranking: options best first, as a JSON or comma-separated list, ranked by position; {value, rank} items kept", () => {
    expect(parseAnswer(order.settings, "y, x, z")).toEqual({ value: [{ value: "y", rank: 1 }, { value: "x", rank: 2 }, { value: "z", rank: 3 }] })
    expect(parseAnswer(order.settings, '[{"value":"x","rank":2}]')).toEqual({ value: [{ value: "x", rank: 2 }] })
    expect(parseAnswer(order.settings, 3)).toMatchObject({ error: expect.stringContaining("list of options") })
  })

  it("span: a JSON list of spans; anything else is said to be wrong", () => {
    expect(parseAnswer(entities.settings, '[{"label":"ORG","start":0,"end":4}]')).toEqual({ value: [{ label: "ORG", start: 0, end: 4 }] })
    expect(parseAnswer(entities.settings, "ORG 0 4")).toMatchObject({ error: expect.stringContaining("JSON list of spans") })
  })
})

describe("scores and vectors", () => {
  it("reads a score as a number or a list of numbers", () => {
    expect(parseScore("0.75")).toEqual({ value: 0.75 })
    expect(parseScore("[0.5, 1]")).toEqual({ value: [0.5, 1] })
    expect(parseScore(0.2)).toEqual({ value: 0.2 })
    expect(parseScore("high")).toMatchObject({ error: expect.stringContaining("a score must be a number") })
    expect(parseScore("[0.5, \"x\"]")).toMatchObject({ error: expect.stringContaining("index 1") })
  })

  it("reads a vector from a JSON list, a comma-separated list or a JSON Lines array, and names a bad element", () => {
    expect(parseVector("[0.1, 0.2, 0.3]")).toEqual({ value: [0.1, 0.2, 0.3] })
    expect(parseVector("0.1, -2, 3e-1")).toEqual({ value: [0.1, -2, 0.3] })
    expect(parseVector([1, 2])).toEqual({ value: [1, 2] })
    expect(parseVector("0.1, x, 3")).toEqual({ error: "expects a list of numbers, found \"x\" at index 1" })
    expect(parseVector("[0.1, null]")).toEqual({ error: "expects a list of numbers, found null at index 1" })
    expect(parseVector({})).toMatchObject({ error: expect.stringContaining("expects a list of numbers") })
  })
})

describe("a row with suggestions, a response and a vector", () => {
  const mapping = {
    t: "field:text",
    s: "metadata:stars",
    sug: suggestionTarget("sentiment"),
    score: scoreTarget("sentiment"),
    agent: agentTarget("sentiment"),
    rate: responseTarget("quality"),
    said: responseTarget("sentiment"),
    topics: suggestionTarget("topics"),
    emb: vectorTarget("emb")
  }
  const more = { questions, vectorSettings, response: { user_id: USER, status: "submitted" as const } }
  const row = (extra: Record<string, unknown> = {}) => ({
    t: "Great phone", s: "4", sug: "positive", score: "0.9", agent: "model-a", rate: "5", said: "positive", topics: "a,b", emb: "[0.1, 0.2, 0.3]", ...extra
  })

  it("builds the record the bulk write takes: suggestions by question id, the chosen user's response, the vector", () => {
    expect(toRecord(row(), mapping, fields, metadata, more)).toEqual({
      record: {
        fields: { text: "Great phone" },
        metadata: { stars: 4 },
        suggestions: [
          { question_id: sentiment.id, value: "positive", score: 0.9, agent: "model-a" },
          { question_id: topics.id, value: ["a", "b"] }
        ],
        responses: [{ user_id: USER, status: "submitted", values: { quality: { value: 5 }, sentiment: { value: "positive" } } }],
        vectors: { emb: [0.1, 0.2, 0.3] }
      }
    })
  })

  it("leaves out a suggestion whose cell is empty (its score and agent with it) and a response with no answer", () => {
    expect(toRecord(row({ sug: "", rate: "", said: "", topics: "" }), mapping, fields, metadata, more)).toEqual({
      record: { fields: { text: "Great phone" }, metadata: { stars: 4 }, vectors: { emb: [0.1, 0.2, 0.3] } }
    })
  })

  it("rejects an unknown label, a rating out of range, a score above 1, a bad agent, with the server's words", () => {
    expect(toRecord(row({ sug: "great" }), mapping, fields, metadata, more)).toEqual({
      error: "suggestion: 'great' is not a valid label for label selection question 'sentiment', valid labels are: ['positive', 'negative', 'neutral']"
    })
    expect(toRecord(row({ rate: "7" }), mapping, fields, metadata, more)).toEqual({
      error: "response: 7 is not a valid rating for rating question 'quality', valid ratings are: [1, 2, 3, 4, 5]"
    })
    expect(toRecord(row({ score: "1.5" }), mapping, fields, metadata, more)).toMatchObject({ error: expect.stringContaining("between 0 and 1") })
    expect(toRecord(row({ agent: "!!" }), mapping, fields, metadata, more)).toMatchObject({ error: expect.stringContaining("agent") })
    expect(toRecord(row({ topics: "a, d" }), mapping, fields, metadata, more)).toMatchObject({ error: expect.stringContaining("'d'") })
  })

  it("rejects a vector of the wrong dimensions or with a non-number, and metadata out of its range", () => {
    expect(toRecord(row({ emb: "0.1, 0.2" }), mapping, fields, metadata, more)).toEqual({
      error: "vector value for vector name='emb' must have 3 elements, got 2 elements"
    })
    expect(toRecord(row({ emb: "0.1, a, 0.3" }), mapping, fields, metadata, more)).toEqual({
      error: "vector 'emb' expects a list of numbers, found \"a\" at index 1"
    })
    expect(toRecord(row({ s: "9" }), mapping, fields, metadata, more)).toMatchObject({ error: expect.stringContaining("maximum value of 5") })
  })

  it("a submitted response must answer every required question; a draft need not", () => {
    const onlyRating = { t: "field:text", rate: responseTarget("quality") }
    expect(toRecord({ t: "x", rate: "3" }, onlyRating, fields, [], more)).toEqual({
      error: "response: missing response value for required question with name='sentiment'"
    })
    const draft = { ...more, response: { user_id: USER, status: "draft" as const } }
    expect(toRecord({ t: "x", rate: "3" }, onlyRating, fields, [], draft)).toMatchObject({
      record: { responses: [{ status: "draft", values: { quality: { value: 3 } } }] }
    })
  })

  it("checks spans against the record's text and rankings by their options", () => {
    const spans = { t: "field:text", e: suggestionTarget("entities"), o: suggestionTarget("order") }
    expect(toRecord({ t: "Acme", e: '[{"label":"ORG","start":0,"end":4}]', o: "z, x" }, spans, fields, [], more)).toMatchObject({
      record: { suggestions: [{ value: [{ label: "ORG", start: 0, end: 4 }] }, { value: [{ value: "z", rank: 1 }, { value: "x", rank: 2 }] }] }
    })
    expect(toRecord({ t: "Acme", e: '[{"label":"ORG","start":0,"end":9}]' }, spans, fields, [], more)).toMatchObject({
      error: expect.stringContaining("must be lower or equal than record field `text` length")
    })
    expect(toRecord({ t: "Acme", o: "x, w" }, spans, fields, [], more)).toMatchObject({ error: expect.stringContaining("'w'") })
  })
})

describe("mapping suggestions, responses and vectors", () => {
  it("maps a question's name to its suggestion, <name>_score and <name>_agent to its score and agent, a vector's name to it", () => {
    expect(autoMap(["text", "sentiment", "sentiment_score", "Sentiment-Agent", "emb", "Embedding", "quality"], fields, [], { questions, vectorSettings }))
      .toEqual({
        text: "field:text",
        sentiment: suggestionTarget("sentiment"),
        sentiment_score: scoreTarget("sentiment"),
        "Sentiment-Agent": agentTarget("sentiment"),
        emb: vectorTarget("emb"),
        Embedding: IGNORE,
        quality: suggestionTarget("quality")
      })
  })

  it("wants a suggestion column beside a score or agent column, and a user for response columns", () => {
    expect(mappingProblems({ t: "field:text", sc: scoreTarget("sentiment"), r: responseTarget("quality") }, fields)).toEqual([
      "The suggestion score for “sentiment” needs a column with the suggestion itself.",
      "Choose the user the response columns answer for."
    ])
    expect(mappingProblems(
      { t: "field:text", s: suggestionTarget("sentiment"), sc: scoreTarget("sentiment"), r: responseTarget("quality") },
      fields,
      { user_id: USER, status: "draft" }
    )).toEqual([])
  })
})

describe("the tally of rows the import would reject", () => {
  it("counts valid and rejected rows and lists the first rejections only", () => {
    let tally = EMPTY_TALLY
    for (let line = 1; line <= 50; line++) tally = tallyRow(tally, line, line % 2 === 0 ? `bad ${line}` : undefined)
    expect(tally.checked).toBe(50)
    expect(tally.valid).toBe(25)
    expect(tally.rejected).toBe(25)
    expect(tally.first).toHaveLength(MAX_LISTED)
    expect(tally.first[0]).toEqual({ line: 2, reason: "bad 2" })
  })
})

/**
 * A dataset for the lead's assignment journey, seeded through the typed client: ten records, six in batch "a" and
 * four in batch "b" (a terms metadata property the annotation view filters on), and three annotators (ann, ben, cat)
 * in its workspace. ann has submitted one record of batch "a" already, so her row shows answers and the team page
 * lists her.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect } from "effect"
import type { DatasetId, RecordId, UserId } from "../../../src/domain/Ids.js"
import { clientFor } from "./seed.js"

export const LEAD_PASSWORD = "annotator-password"

/** Per record: its text and batch. */
export const LEAD_ROWS = [
  { text: "The kettle boils in a minute.", batch: "a" },
  { text: "The toaster burns one side.", batch: "a" },
  { text: "The blender is loud but strong.", batch: "b" },
  { text: "The fridge hums all night.", batch: "a" },
  { text: "The oven heats unevenly.", batch: "b" },
  { text: "The mixer came without its whisk.", batch: "a" },
  { text: "The grill cleans easily.", batch: "a" },
  { text: "The fan rattles at full speed.", batch: "b" },
  { text: "The iron leaks a little water.", batch: "a" },
  { text: "The heater smells when first used.", batch: "b" }
] as const

export interface LeadPerson {
  readonly id: UserId
  readonly username: string
  readonly password: string
  readonly apiKey: string
}

export interface LeadSeeded {
  readonly datasetId: DatasetId
  readonly datasetName: string
  /** ann, ben, cat */
  readonly annotators: readonly [LeadPerson, LeadPerson, LeadPerson]
  readonly records: ReadonlyArray<RecordId>
}

export const seedAssignmentLead = (baseUrl: string, ownerKey: string, suffix = Date.now().toString(36)) =>
  Effect.gen(function*() {
    const owner = yield* clientFor(baseUrl, ownerKey)
    const workspace = yield* owner.workspaces.create({ payload: { name: `lead-${suffix}` } })
    const people: Array<LeadPerson> = []
    for (const name of ["ann", "ben", "cat"]) {
      const user = yield* owner.users.create({
        payload: { first_name: name, username: `${name}-${suffix}`, password: LEAD_PASSWORD, role: "annotator" }
      })
      yield* owner.workspaces.addUser({ path: { id: workspace.id }, payload: { user_id: user.id } })
      if (user.api_key === undefined) return yield* Effect.dieMessage(`the owner was not shown ${user.username}'s API key`)
      people.push({ id: user.id, username: user.username, password: LEAD_PASSWORD, apiKey: user.api_key })
    }
    const [ann, ben, cat] = people
    if (ann === undefined || ben === undefined || cat === undefined) return yield* Effect.dieMessage("three annotators")
    const dataset = yield* owner.datasets.create({ payload: { name: `appliances-${suffix}`, workspace_id: workspace.id } })
    const id = dataset.id
    yield* owner.fields.create({ path: { id }, payload: { name: "text", title: "Review", settings: { type: "text" } } })
    yield* owner.questions.create({
      path: { id },
      payload: {
        name: "sentiment",
        title: "Sentiment",
        required: true,
        settings: {
          type: "label_selection",
          options: [{ value: "positive", text: "Positive" }, { value: "negative", text: "Negative" }]
        }
      }
    })
    yield* owner.metadataProperties.create({
      path: { id },
      payload: { name: "batch", title: "Batch", settings: { type: "terms", values: ["a", "b"] } }
    })
    yield* owner.datasets.publish({ path: { id } })
    yield* owner.records.bulkCreate({
      path: { id },
      payload: {
        items: LEAD_ROWS.map((row, i) => ({
          external_id: `lead-${i}`,
          fields: { text: row.text },
          metadata: { batch: row.batch },
          suggestions: [{ question_name: "sentiment", value: "positive", agent: "model", score: 0.6 }]
        }))
      }
    })
    const listed = (yield* owner.records.list({ path: { id }, urlParams: { limit: 100 } })).items
    const records = LEAD_ROWS.map((_, i) => listed.find((r) => r.external_id === `lead-${i}`)?.id)
    if (records.some((r) => r === undefined)) return yield* Effect.dieMessage("a record was not created")
    const first = records[0]
    if (first === undefined) return yield* Effect.dieMessage("no first record")
    const annClient = yield* clientFor(baseUrl, ann.apiKey)
    yield* annClient.responses.create({
      path: { id: first },
      payload: { status: "submitted", values: { sentiment: { value: "positive" } } }
    })
    return {
      datasetId: id,
      datasetName: dataset.name,
      annotators: [ann, ben, cat],
      records: records.filter((r): r is RecordId => r !== undefined)
    } satisfies LeadSeeded
  }).pipe(Effect.provide(FetchHttpClient.layer))

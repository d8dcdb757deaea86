/**
 * A dataset where the caller's Pending queue is smaller than "records I have not answered": with `min_submitted` 2,
 * two other annotators have completed some records (the caller never answered them, yet they are out of the queue),
 * one record has a single answer from another annotator (still pending), and the caller has answered some.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect } from "effect"
import type { DatasetId } from "../../../src/domain/Ids.js"
import { ANNOTATOR_PASSWORD, clientFor } from "./seed.js"

export const RECORDS = 8
/** Records both other annotators submitted: completed, out of everyone's Pending queue. */
export const COMPLETED_BY_OTHERS = [0, 1] as const
/** A record one other annotator submitted: still pending for the caller. */
export const HALF_DONE = 2
/** The caller's own answers. */
export const MINE = { 3: "submitted", 4: "discarded" } as const

export interface QueueCountSeeded {
  readonly datasetId: DatasetId
  readonly me: { readonly username: string; readonly password: string; readonly apiKey: string }
}

export const seedQueueCount = (baseUrl: string, ownerKey: string, suffix = Date.now().toString(36)) =>
  Effect.gen(function*() {
    const owner = yield* clientFor(baseUrl, ownerKey)
    const workspace = yield* owner.workspaces.create({ payload: { name: `queue-${suffix}` } })
    const keys: Array<{ readonly username: string; readonly apiKey: string }> = []
    for (const name of ["dana", "eli", "fay"]) {
      const user = yield* owner.users.create({
        payload: { first_name: name, username: `${name}-${suffix}`, password: ANNOTATOR_PASSWORD, role: "annotator" }
      })
      yield* owner.workspaces.addUser({ path: { id: workspace.id }, payload: { user_id: user.id } })
      if (user.api_key === undefined) return yield* Effect.dieMessage("the owner was not shown the annotator's API key")
      keys.push({ username: user.username, apiKey: user.api_key })
    }
    const dataset = yield* owner.datasets.create({
      payload: { name: `queue-${suffix}`, workspace_id: workspace.id, distribution: { strategy: "overlap", min_submitted: 2 } }
    })
    const id = dataset.id
    yield* owner.fields.create({ path: { id }, payload: { name: "text", title: "Text", settings: { type: "text" } } })
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
    yield* owner.datasets.publish({ path: { id } })
    yield* owner.records.bulkCreate({
      path: { id },
      payload: { items: Array.from({ length: RECORDS }, (_, i) => ({ external_id: `q-${i}`, fields: { text: `Record number ${i}.` } })) }
    })
    const records = (yield* owner.records.list({ path: { id }, urlParams: { limit: 100 } })).items
    const recordAt = (i: number) => {
      const record = records.find((r) => r.external_id === `q-${i}`)
      return record === undefined ? Effect.dieMessage(`record q-${i} was not created`) : Effect.succeed(record)
    }
    const [me, other1, other2] = keys
    if (me === undefined || other1 === undefined || other2 === undefined) return yield* Effect.dieMessage("three annotators")
    const submit = (apiKey: string, i: number, status: "submitted" | "discarded" = "submitted") =>
      Effect.gen(function*() {
        const client = yield* clientFor(baseUrl, apiKey)
        const record = yield* recordAt(i)
        yield* client.responses.create({
          path: { id: record.id },
          payload: status === "submitted" ? { status, values: { sentiment: { value: "positive" } } } : { status }
        })
      })
    for (const i of COMPLETED_BY_OTHERS) {
      yield* submit(other1.apiKey, i)
      yield* submit(other2.apiKey, i)
    }
    yield* submit(other1.apiKey, HALF_DONE)
    for (const [i, status] of Object.entries(MINE)) yield* submit(me.apiKey, Number(i), status)
    return { datasetId: id, me: { ...me, password: ANNOTATOR_PASSWORD } } satisfies QueueCountSeeded
  }).pipe(Effect.provide(FetchHttpClient.layer))

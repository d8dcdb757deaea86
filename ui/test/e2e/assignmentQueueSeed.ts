/**
 * Two datasets for the assignment queue journey, in one workspace with two annotators:
 * - "queue": `min_submitted` 1, ASSIGNED records assigned to the first annotator (inserted last, so only the
 *   assignment puts them first), POOL records assigned to nobody, one of them with a priority, and a pool quota
 *   too large to bind (a lead's setting: it puts the second annotator, who has no assignment, in the queue too);
 * - "blind": blind mode on, every record with a suggestion by a named agent.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect } from "effect"
import type { DatasetId, RecordId, UserId } from "../../../src/domain/Ids.js"
import { ANNOTATOR_PASSWORD, clientFor } from "./seed.js"

/** Pool records (assigned to nobody), inserted first: `pool-0` … */
export const POOL = 25
/** Records assigned to the first annotator, inserted after the pool: `assigned-0` … */
export const ASSIGNED = 3
/** The pool record given a priority: it comes first of the pool. */
export const PRIORITY_RECORD = 7
export const PRIORITY = 2
/** The queue dataset's quota of pool records per user: more than the pool. */
export const QUOTA = 1000
export const BLIND_RECORDS = 3
export const AGENT = "model-x"

export const poolText = (i: number) => `Pool item ${i}.`
export const assignedText = (i: number) => `Assigned item ${i}.`
export const blindText = (i: number) => `Blind item ${i}.`

export interface Annotator {
  readonly username: string
  readonly password: string
  readonly apiKey: string
}

export interface AssignmentQueueSeeded {
  readonly queueId: DatasetId
  readonly blindId: DatasetId
  readonly ann: Annotator
  readonly bo: Annotator
  /** Record ids of the "queue" dataset by their text. */
  readonly textOf: ReadonlyMap<string, string>
}

interface SeedRecord {
  readonly external_id: string
  readonly fields: { readonly text: string }
  readonly suggestions?: ReadonlyArray<
    { readonly question_name: string; readonly value: string; readonly agent: string; readonly score: number }
  >
}

const SENTIMENT = {
  name: "sentiment",
  title: "Sentiment",
  required: true,
  settings: {
    type: "label_selection" as const,
    options: [{ value: "positive", text: "Positive" }, { value: "negative", text: "Negative" }]
  }
}

export const seedAssignmentQueue = (baseUrl: string, ownerKey: string, suffix = Date.now().toString(36)) =>
  Effect.gen(function*() {
    const owner = yield* clientFor(baseUrl, ownerKey)
    const workspace = yield* owner.workspaces.create({ payload: { name: `assign-${suffix}` } })
    const annotators: Array<Annotator & { readonly id: UserId }> = []
    for (const name of ["ann", "bo"]) {
      const user = yield* owner.users.create({
        payload: { first_name: name, username: `${name}-${suffix}`, password: ANNOTATOR_PASSWORD, role: "annotator" }
      })
      yield* owner.workspaces.addUser({ path: { id: workspace.id }, payload: { user_id: user.id } })
      if (user.api_key === undefined) return yield* Effect.dieMessage("the owner was not shown the annotator's API key")
      annotators.push({ id: user.id, username: user.username, password: ANNOTATOR_PASSWORD, apiKey: user.api_key })
    }
    const [ann, bo] = annotators
    if (ann === undefined || bo === undefined) return yield* Effect.dieMessage("two annotators")

    const makeDataset = (name: string, items: ReadonlyArray<SeedRecord>) =>
      Effect.gen(function*() {
        const dataset = yield* owner.datasets.create({
          payload: { name: `${name}-${suffix}`, workspace_id: workspace.id, distribution: { strategy: "overlap", min_submitted: 1 } }
        })
        const id = dataset.id
        yield* owner.fields.create({ path: { id }, payload: { name: "text", title: "Text", settings: { type: "text" } } })
        yield* owner.questions.create({ path: { id }, payload: SENTIMENT })
        yield* owner.datasets.publish({ path: { id } })
        yield* owner.records.bulkCreate({ path: { id }, payload: { items } })
        return id
      })

    const queueId = yield* makeDataset("queue", [
      ...Array.from({ length: POOL }, (_, i) => ({ external_id: `pool-${i}`, fields: { text: poolText(i) } })),
      ...Array.from({ length: ASSIGNED }, (_, i) => ({ external_id: `assigned-${i}`, fields: { text: assignedText(i) } }))
    ])
    const records = (yield* owner.records.list({ path: { id: queueId }, urlParams: { limit: 100 } })).items
    const idOf = (externalId: string) => {
      const record = records.find((r) => r.external_id === externalId)
      return record === undefined ? Effect.dieMessage(`record ${externalId} was not created`) : Effect.succeed(record.id as RecordId)
    }
    const assigned = yield* Effect.forEach(Array.from({ length: ASSIGNED }, (_, i) => `assigned-${i}`), idOf)
    yield* owner.assignment.assign({ path: { id: queueId }, payload: { users: [ann.id], record_ids: assigned } })
    yield* owner.assignment.updateSettings({ path: { id: queueId }, payload: { quota: QUOTA } })
    yield* owner.assignment.prioritize({
      path: { id: queueId },
      payload: { record_ids: [yield* idOf(`pool-${PRIORITY_RECORD}`)], priority: PRIORITY }
    })

    const blindId = yield* makeDataset(
      "blind",
      Array.from({ length: BLIND_RECORDS }, (_, i) => ({
        external_id: `blind-${i}`,
        fields: { text: blindText(i) },
        suggestions: [{ question_name: "sentiment", value: "negative", agent: AGENT, score: 0.9 }]
      }))
    )
    yield* owner.assignment.updateSettings({ path: { id: blindId }, payload: { blind: true } })

    const textOf = new Map(records.map((r) => [r.id as string, String(r.fields["text"])]))
    return { queueId, blindId, ann, bo, textOf } satisfies AssignmentQueueSeeded
  }).pipe(Effect.provide(FetchHttpClient.layer))

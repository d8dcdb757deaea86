/** Datasets for tests: created through the typed client, as a user of the API would. */
import { Effect } from "effect"
import type { Dataset } from "../../src/domain/Dataset.js"
import type { Workspace } from "../../src/domain/Workspace.js"
import { unique, workspace as newWorkspace } from "./fixtures.js"
import { OWNER, ownerClient, raw } from "./server.js"

/** A draft dataset in `workspace` (a new one when not given). */
export const draftDataset = (workspace?: Workspace, name = unique("ds")) =>
  Effect.gen(function*() {
    const owner = yield* ownerClient
    const w = workspace ?? (yield* newWorkspace())
    return yield* owner.datasets.create({ payload: { name, workspace_id: w.id } })
  })

/** A published dataset with a text field `text` and a required label question `label`. */
export const publishedDataset = (workspace?: Workspace) =>
  Effect.gen(function*() {
    const owner = yield* ownerClient
    const dataset = yield* draftDataset(workspace)
    yield* owner.fields.create({
      path: { id: dataset.id },
      payload: { name: "text", title: "Text", settings: { type: "text" } }
    })
    yield* owner.questions.create({
      path: { id: dataset.id },
      payload: {
        name: "label",
        title: "Label",
        required: true,
        settings: {
          type: "label_selection",
          options: [{ value: "yes", text: "Yes" }, { value: "no", text: "No" }]
        }
      }
    })
    return yield* owner.datasets.publish({ path: { id: dataset.id } })
  })

/** A raw JSON request as the owner (or `key`), for bodies the typed client would refuse to send. */
export const send = (method: string, path: string, body?: unknown, key: string = OWNER.apiKey) =>
  raw(path, {
    method,
    headers: { "content-type": "application/json", "x-gloss-api-key": key },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

export const datasetPath = (dataset: Dataset, rest = "") => `/api/v1/datasets/${dataset.id}${rest}`

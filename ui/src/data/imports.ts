/**
 * What the importer reads and starts beyond the bulk write (`settings.ts` has `importBatch`): the users a response
 * column may answer for (the dataset's workspace members), and the Hub import job, followed until it ends.
 */
import { queryOptions } from "@tanstack/react-query"
import { Effect } from "effect"
import type { DatasetHubImport } from "../../../src/domain/HubTransfer.js"
import type { DatasetId, WorkspaceId } from "../../../src/domain/Ids.js"
import type { Job } from "../../../src/domain/Job.js"
import { isDone, POLL_MS } from "./bulk.js"
import { call } from "./client.js"

/**
 * `GET /workspaces/{id}/users`: whom a response may be imported for (the server refuses anyone outside it); nothing
 * is asked until the workspace is known.
 */
export const workspaceUsers = (id: WorkspaceId | undefined) =>
  queryOptions({
    queryKey: ["workspace", id, "users"],
    enabled: id !== undefined,
    queryFn: ({ signal }) =>
      id === undefined ? Promise.resolve([]) : call((c) => Effect.map(c.workspaces.listUsers({ path: { id } }), (r) => r.items), signal)
  })

/**
 * `POST /datasets/{id}/import`, then `GET /jobs/{id}` every `POLL_MS` until the job ends, each state handed to
 * `onJob`. `signal` stops the polling (the job goes on on the server).
 */
export const runHubImport = async (
  id: DatasetId,
  payload: DatasetHubImport,
  onJob: (job: Job) => void,
  signal: AbortSignal
): Promise<Job> => {
  let job = await call((c) => c.datasets.importFromHub({ path: { id }, payload }))
  onJob(job)
  while (!isDone(job) && !signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    const jobId = job.id
    job = await call((c) => c.jobs.get({ path: { id: jobId } }), signal)
    onJob(job)
  }
  return job
}

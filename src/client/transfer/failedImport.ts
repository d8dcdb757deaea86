/**
 * How an import from disk or from the Hub ends when it fails after creating its dataset: the dataset is deleted, so
 * a failed import leaves nothing behind, or kept with `keepPartial`; either way `DatasetImportFailed` says how many
 * records the dataset holds and why.
 */
import { Effect } from "effect"
import type { DatasetId } from "../../domain/Ids.js"
import { DatasetImportFailed } from "../Errors.js"
import type { Transport } from "../Transport.js"

/** A batch the server refused: its first record's position in the source (1-based), its size, the API's error. */
export interface RefusedBatch {
  readonly error: unknown
  readonly first: number
  readonly size: number
}

/** The API's explanation (`detail`) when there is one, else the error's message. */
const describe = (error: unknown): string => {
  if (typeof error === "object" && error !== null && "detail" in error && typeof error.detail === "string") {
    return error.detail
  }
  return error instanceof Error ? error.message : String(error)
}

/** Why the import stopped: a refused batch by its records' positions, or another failure's message. */
export const importFailureReason = (failure: RefusedBatch | { readonly message: string }): string =>
  "first" in failure
    ? `the batch of records ${failure.first}–${failure.first + failure.size - 1} was refused: ${describe(failure.error)}`
    : failure.message

export const failedImport = (
  transport: Transport,
  dataset: { readonly id: DatasetId; readonly name: string },
  outcome: { readonly keepPartial: boolean | undefined; readonly done: number; readonly total: number; readonly reason: string }
) =>
  Effect.gen(function*() {
    const kept = outcome.keepPartial === true
    if (!kept) {
      yield* transport.call(transport.api.datasets.delete({ path: { id: dataset.id } })).pipe(
        Effect.catchAll((error) => Effect.logWarning(`Deleting the dataset ${dataset.id} failed`, error))
      )
    }
    return yield* new DatasetImportFailed({
      dataset: dataset.name,
      imported: kept ? outcome.done : 0,
      total: outcome.total,
      kept,
      reason: outcome.reason
    })
  })

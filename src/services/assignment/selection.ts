/**
 * The records an assignment, a removal or a priority applies to: those named by id (each must be in the dataset),
 * every record a search matches (read as the caller's `POST /me/datasets/{id}/records/search` reads it, filters
 * and all), both (the ids the search matches), or, naming neither, every record of the dataset.
 */
import { Effect } from "effect"
import type { RecordSelection } from "../../domain/Assignment.js"
import { Unprocessable } from "../../domain/Errors.js"
import type { DatasetId, RecordId } from "../../domain/Ids.js"
import type { User } from "../../domain/User.js"
import { VECTOR_MATCHES } from "../records/ApplyResponses.js"
import { RecordsRepo } from "../records/RecordsRepo.js"
import { Search } from "../records/Search.js"
import { AssignmentsRepo } from "./AssignmentsRepo.js"

const invalid = (detail: string) => new Unprocessable({ detail })

export class Selections extends Effect.Service<Selections>()("Gloss/Selections", {
  effect: Effect.gen(function*() {
    const records = yield* RecordsRepo
    const search = yield* Search
    const repo = yield* AssignmentsRepo

    const select = Effect.fn("Selections.select")(
      function*(actor: User, datasetId: DatasetId, selection: RecordSelection) {
        let named: ReadonlyArray<RecordId> | undefined
        if (selection.record_ids !== undefined) {
          const unique = [...new Set(selection.record_ids)]
          const found = new Set<string>(
            (yield* records.findByIds(datasetId, unique)).filter((r) => r.dataset_id === datasetId).map((r) => r.id)
          )
          const missing = unique.filter((id) => !found.has(id))
          if (missing.length > 0) {
            return yield* invalid(
              `${missing.length} record${missing.length === 1 ? " is" : "s are"} not in this dataset: ${
                missing.slice(0, 5).join(", ")
              }${missing.length > 5 ? ", …" : ""}`
            )
          }
          named = unique
        }
        if (selection.query === undefined) return named ?? (yield* repo.recordIds(datasetId))
        const { read } = yield* search.matchingIdsOf(actor, datasetId, selection.query, VECTOR_MATCHES).pipe(
          Effect.catchTag("MissingVector", (error) => Effect.fail(invalid(error.message)))
        )
        const matched: ReadonlyArray<RecordId> = yield* read
        if (named === undefined) return matched
        const wanted = new Set<string>(named)
        return matched.filter((id) => wanted.has(id))
      }
    )
    return { select } as const
  }),
  dependencies: [RecordsRepo.Default, Search.Default, AssignmentsRepo.Default]
}) {}

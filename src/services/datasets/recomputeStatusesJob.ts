import { Schema } from "effect"
import { DatasetId } from "../../domain/Ids.js"

/**
 * The job a dataset asks for when its distribution changes: its records' statuses are recomputed.
 * Named here, by the dataset that enqueues it; run by `records/RecomputeStatuses.ts`, which owns the records.
 */
export const RecomputeStatuses = "datasets.recompute_statuses"

export const RecomputeStatusesPayload = Schema.Struct({ datasetId: DatasetId })

/**
 * What the ANN index worker (annIndex.worker.ts) is asked and answers, typed once for both ends: the main thread's
 * client (AnnWorker.ts) and the worker's operations are both checked against `AnnCalls`.
 */
import { Schema } from "effect"

/** A saved segment and the checksum that must match before it is loaded. */
export const SegmentFile = Schema.Struct({ path: Schema.String, sha256: Schema.String })
export type SegmentFile = typeof SegmentFile.Type

/** What a set holds: `entries` in all, of them `delta` in the in-memory delta and `staged` not added yet. */
export const SetState = Schema.Struct({ entries: Schema.Number, delta: Schema.Number, staged: Schema.Number })
export type SetState = typeof SetState.Type

/** Each operation's arguments and result. Vectors are unit float32s, one after the other; keys are float64s. */
export interface AnnCalls {
  readonly create: { readonly args: { readonly set: string; readonly dimensions: number }; readonly result: SetState }
  readonly open: {
    readonly args: {
      readonly set: string
      readonly dimensions: number
      readonly sealed: ReadonlyArray<SegmentFile>
      readonly delta: SegmentFile | null
    }
    readonly result: SetState
  }
  readonly add: {
    readonly args: { readonly set: string; readonly keys: Float64Array; readonly vectors: Float32Array; readonly threads: number }
    readonly result: SetState
  }
  readonly stage: {
    readonly args: { readonly set: string; readonly keys: Float64Array; readonly vectors: Float32Array; readonly path: string | null }
    readonly result: SetState
  }
  readonly addStaged: { readonly args: { readonly set: string; readonly count: number; readonly threads: number }; readonly result: SetState }
  readonly seal: { readonly args: { readonly set: string; readonly path: string }; readonly result: SetState & { readonly file: SegmentFile } }
  readonly saveDelta: { readonly args: { readonly set: string; readonly path: string }; readonly result: SegmentFile | null }
  readonly search: {
    readonly args: { readonly set: string; readonly vector: Float32Array; readonly k: number }
    readonly result: { readonly keys: Float64Array }
  }
  readonly close: { readonly args: { readonly set: string }; readonly result: null }
}

export type AnnOp = keyof AnnCalls

/** One call, as posted: an operation and its arguments. */
export type AnnRequest = { readonly [Op in AnnOp]: { readonly op: Op; readonly args: AnnCalls[Op]["args"] } }[AnnOp]

/** The HNSW parameters the worker builds its indexes with (see segments.ts). */
export interface AnnWorkerData {
  readonly connectivity: number
  readonly expansionAdd: number
  readonly expansionSearch: number
  readonly sealedExpansion: number
}

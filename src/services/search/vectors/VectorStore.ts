/**
 * The built-in engine's vectors, as one service: similarity search over a vector settings' vectors, and what it must
 * be told of writes. The database is the truth; everything the store keeps (matrices in memory, ANN indexes in a
 * worker thread, their files and copies under GLOSS_HOME_PATH) is a cache it rebuilds from there. How it does that is
 * in this folder's README; VectorStoreLive.ts builds it.
 */
import { Context, type Effect } from "effect"
import type { DatasetId, VectorSettingsId } from "../../../domain/Ids.js"
import type { WrittenVector } from "../Query.js"

/** An allowed record and its key (its insertion order, the ANN index's key). */
export interface AllowedRecord {
  readonly id: string
  readonly key: number
}

/**
 * The records that filters and a text query allow, read from the database only as far as a search needs them: a
 * filter that allows a sixth of a million records is 170 000 rows, and a scan of every record's metadata to find them.
 */
export interface Allowed<E> {
  /** The allowed records, at most `limit` of them (any ones): fewer than `limit` means all of them. */
  readonly read: (limit?: number) => Effect.Effect<ReadonlyArray<AllowedRecord>, E>
  /** Which of these keys are allowed (at most 10 000 of them at once). */
  readonly among: (keys: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<number>, E>
}

export interface RankOptions<E> {
  /** `least_similar`: the farthest first. */
  readonly least: boolean
  /** Undefined: every record is allowed. */
  readonly allowed?: Allowed<E> | undefined
  readonly exclude?: string | undefined
}

/** A record and its vector's cosine similarity with the query. */
export interface VectorHit {
  readonly id: string
  readonly score: number
}

/** A vector settings, by id, with its dimensions. */
export interface VectorSettingsRef {
  readonly id: string
  readonly dimensions: number
}

export interface VectorStoreShape {
  /**
   * The `k` records whose vectors of these settings are nearest `query` (farthest, for `least`), best first, with
   * their exact cosine similarity. Fails only with what `options.allowed` fails with.
   */
  readonly rank: <E>(
    settings: { readonly id: VectorSettingsId; readonly dimensions: number },
    query: ReadonlyArray<number>,
    k: number,
    options: RankOptions<E>
  ) => Effect.Effect<ReadonlyArray<VectorHit>, E>
  /**
   * Vectors of these settings were written by this process and have committed (or the settings were published or
   * added): the next search sees them, and an ANN index starts for settings past the threshold. `vectors`, when the
   * writer has them, are the vectors it stored: an index adds them without reading them back.
   */
  readonly written: (settings: Iterable<VectorSettingsRef>, vectors?: ReadonlyArray<WrittenVector>) => Effect.Effect<void>
  /** Records were deleted by this process (which vectors went is not known): their vectors stop coming back. */
  readonly deleted: Effect.Effect<void>
  /** The dataset's index is dropped (a reindex, or the dataset deleted): its settings are forgotten, files too. */
  readonly forgetDataset: (datasetId: DatasetId) => Effect.Effect<void>
  /** Saves what is not saved yet (also done when the store's scope closes, at shutdown). */
  readonly save: Effect.Effect<void>
}

export class VectorStore extends Context.Tag("Gloss/VectorStore")<VectorStore, VectorStoreShape>() {}

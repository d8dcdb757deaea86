/** What the SQLite search worker (sqliteReader.worker.ts) is started with, asked and answers: typed for both ends. */

export interface SqliteReaderData {
  /** The database file, opened read-only (it must exist). */
  readonly filename: string
  readonly mmapBytes: number
  readonly cacheKib: number
}

/**
 * A compiled read-only statement. Blob parameters arrive as Uint8Arrays (postMessage does not keep Buffers).
 * `skipWhenPrevious`: not run when the statement before it gave from `from` to `to` rows (a page's count, which a
 * short page does not need).
 */
export interface CompiledRead {
  readonly sql: string
  readonly params: ReadonlyArray<unknown>
  readonly skipWhenPrevious?: RowsBetween | undefined
}

export interface RowsBetween {
  readonly from: number
  readonly to: number
}

/**
 * Statements run one after the other in one call: a page of hits and its count cross the thread once, not twice
 * (`npm run bench -- small`).
 */
export interface ReadRequest {
  readonly statements: ReadonlyArray<CompiledRead>
}

/** Each statement's rows, as better-sqlite3 returns them, in the order asked; null for one skipped. */
export type ReadResult = ReadonlyArray<ReadonlyArray<unknown> | null>

/** Whether a statement asked to be skipped after `previous` (the rows of the one before it) is. */
export const skipped = (skip: RowsBetween | undefined, previous: ReadonlyArray<unknown> | null | undefined) =>
  skip !== undefined && previous != null && previous.length >= skip.from && previous.length <= skip.to

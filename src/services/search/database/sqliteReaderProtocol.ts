/** What the SQLite search worker (sqliteReader.worker.ts) is started with, asked and answers: typed for both ends. */

export interface SqliteReaderData {
  /** The database file, opened read-only (it must exist). */
  readonly filename: string
  readonly mmapBytes: number
  readonly cacheKib: number
}

/** A compiled read-only statement. Blob parameters arrive as Uint8Arrays (postMessage does not keep Buffers). */
export interface ReadRequest {
  readonly sql: string
  readonly params: ReadonlyArray<unknown>
}

/** The statement's rows, as better-sqlite3 returns them. */
export type ReadResult = ReadonlyArray<unknown>

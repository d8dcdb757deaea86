/**
 * The envelope of a call into one of the search's worker threads, shared by both ends (WorkerCalls.ts posts and
 * waits, serve.ts answers), so that a change to it fails to compile on both sides at once. What a call asks and
 * answers is each worker's own protocol (`annProtocol.ts`, `sqliteReaderProtocol.ts`).
 */

/** What the main thread posts: the call, with the id its answer comes back with. */
export interface Posted<Request> {
  readonly id: number
  readonly request: Request
}

/**
 * What the worker posts back: the call's result or its failure; or `running`, a notice that the call has begun (the
 * SQLite reader sends it before it enters SQLite, where only stopping the worker ends a statement).
 */
export type Reply<Result> =
  | { readonly id: number; readonly result: Result }
  | { readonly id: number; readonly error: string }
  | { readonly id: number; readonly running: true }

/**
 * The `workerData` every worker is started with: its own data, and, when it runs from the TypeScript sources, the
 * module the loader (fromSource.mjs) is to import.
 */
export interface Started<Data> {
  readonly data: Data
  readonly sourceModule?: string
}

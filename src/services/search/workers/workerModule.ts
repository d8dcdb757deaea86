/**
 * Where a worker thread's code is, built or not. The server ships as a bundle (`dist/gloss.mjs`) with each worker
 * bundled beside it under `workers/` (the build's other entries, see package.json's `build:server`); run from the
 * sources (tests, `npm run gloss`), a worker is its TypeScript module itself, imported through tsx by
 * fromSource.mjs: a worker thread does not inherit the loader hooks of the thread that starts it.
 */
import type { Started } from "./protocol.js"

/** A worker's entry and the `workerData` that starts it. */
export interface WorkerModule {
  readonly url: URL
  readonly workerData: (data: unknown) => Started<unknown>
}

/** In the bundle every module's `import.meta.url` is the bundle's own; from the sources, this file's. */
const fromSources = import.meta.url.endsWith(".ts")

/**
 * The worker `name` (its bundle is `workers/<name>.mjs` beside the server's), whose source module is `source`
 * (`new URL("./x.worker.ts", import.meta.url)` in the module that starts it).
 */
export const workerModule = (name: string, source: URL): WorkerModule =>
  fromSources
    ? { url: new URL("./fromSource.mjs", import.meta.url), workerData: (data) => ({ data, sourceModule: source.href }) }
    : { url: new URL(`./workers/${name}.mjs`, import.meta.url), workerData: (data) => ({ data }) }

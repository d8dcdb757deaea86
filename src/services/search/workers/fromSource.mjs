// A worker thread run from the TypeScript sources (tests, `npm run gloss`): tsx's loader registered in this thread,
// then the worker's module (workerModule.ts). The built server never starts this file: its workers are bundled.
import { workerData } from "node:worker_threads"
import { register } from "tsx/esm/api"

register()
await import(workerData.sourceModule)

/**
 * The worker's side of WorkerCalls: each posted call is answered with its result, or with the message of what it
 * threw. Calls run one at a time, in the order they were posted (a worker thread runs one thing at a time anyway).
 */
import { parentPort, workerData } from "node:worker_threads"
import type { Posted, Reply, Started } from "./protocol.js"

/** The data this worker was started with (WorkerCalls' `workerData`). */
export const startedWith = <Data>(): Data => (workerData as Started<Data>).data

/**
 * Answers every call with `answer`; `begun()` posts the notice that the call has begun (for a caller that stops the
 * worker when it gives up on a call, see WorkerCalls' `stopOnInterrupt`).
 */
export const serveCalls = <Request, Result>(answer: (request: Request, begun: () => void) => Result): void => {
  const port = parentPort
  if (port === null) throw new Error("serveCalls runs in a worker thread")
  port.on("message", ({ id, request }: Posted<Request>) => {
    const post = (reply: Reply<Result>) => port.postMessage(reply)
    try {
      post({ id, result: answer(request, () => post({ id, running: true })) })
    } catch (error) {
      post({ id, error: error instanceof Error ? error.message : String(error) })
    }
  })
}

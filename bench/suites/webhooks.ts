/**
 * Webhook delivery throughput: a backlog of `record.created` events (one bulk ingest of GLOSS_BENCH_EVENTS records,
 * 24 000 by default) delivered to a local receiver that answers 204 at once, with 1 and 2 job workers in the
 * server, on the embedded queue (SQLite) and on Redis. Reported: events delivered per second from the first
 * request of the ingest to the last delivery, the time to drain the backlog, and duplicates (deliveries sharing a
 * `webhook-id`). Targets: ≥ 1 000 events/s with 2 workers, 24 000 events drained in under 30 s.
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { api, benchDataset, benchRecord } from "../lib/http.js"
import { BENCH_API_KEY, startGloss } from "../lib/processes.js"

const EVENTS = Number(process.env.GLOSS_BENCH_EVENTS ?? 24_000)
const BATCH = 500
/** A run that has not drained after this long is reported as such (the figure is then a lower bound). */
const GIVE_UP_MS = Number(process.env.GLOSS_BENCH_WEBHOOKS_GIVE_UP_S ?? 300) * 1000
const REDIS_URL = process.env.GLOSS_TEST_REDIS_URL ?? "redis://127.0.0.1:6379"

/** A receiver that answers every POST with 204 and counts distinct `webhook-id`s. */
const receiver = async () => {
  const ids = new Set<string>()
  let deliveries = 0
  let last = 0
  const server = http.createServer((request, response) => {
    request.resume()
    request.on("end", () => {
      deliveries++
      ids.add(String(request.headers["webhook-id"]))
      last = performance.now()
      response.writeHead(204).end()
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    distinct: () => ids.size,
    deliveries: () => deliveries,
    lastAt: () => last,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

const run = async (queue: "embedded" | "redis", workers: number) => {
  const hook = await receiver()
  const server = await startGloss({
    GLOSS_JOB_WORKERS: String(workers),
    // The receiver listens on loopback, which webhooks may post to only when it is listed.
    GLOSS_WEBHOOKS_ALLOWED_HOSTS: "127.0.0.1",
    ...(queue === "redis" ? { GLOSS_REDIS_URL: REDIS_URL } : {})
  })
  try {
    const call = api(server.url, BENCH_API_KEY)
    const datasetId = await benchDataset(call, `webhooks-${Date.now()}`)
    await call("POST", "/webhooks", { url: hook.url, events: ["record.created"] })
    const bodies: Array<string> = []
    for (let from = 0; from < EVENTS; from += BATCH) {
      bodies.push(JSON.stringify({ items: Array.from({ length: Math.min(BATCH, EVENTS - from) }, (_, k) => benchRecord(from + k)) }))
    }
    const started = performance.now()
    for (const body of bodies) {
      const response = await fetch(`${server.url}/api/v1/datasets/${datasetId}/records/bulk`, {
        method: "PUT",
        headers: { "content-type": "application/json", "x-gloss-api-key": BENCH_API_KEY },
        body
      })
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`bulk upsert answered ${response.status}`)
    }
    const ingested = performance.now()
    while (hook.distinct() < EVENTS && performance.now() - started < GIVE_UP_MS) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const drained = hook.distinct() >= EVENTS
    const seconds = ((drained ? hook.lastAt() : performance.now()) - started) / 1000
    return {
      events: EVENTS,
      delivered: hook.distinct(),
      drained,
      duplicates: hook.deliveries() - hook.distinct(),
      ingestSeconds: Number(((ingested - started) / 1000).toFixed(1)),
      drainSeconds: Number(seconds.toFixed(1)),
      eventsPerSecond: Math.round(hook.distinct() / seconds),
      peakRssMB: Math.round(server.peakRss() / 2 ** 20)
    }
  } finally {
    await server.stop()
    await hook.close()
  }
}

export const webhooksSuite = async () => {
  const results: Record<string, unknown> = {}
  for (const queue of ["embedded", "redis"] as const) {
    for (const workers of [1, 2]) {
      const result = await run(queue, workers)
      results[`${queue}, ${workers} worker${workers === 1 ? "" : "s"}`] = {
        ...result,
        ...(workers === 2
          ? {
            meetsTarget: {
              eventsPerSecond: result.eventsPerSecond >= 1_000,
              // Only a backlog of the target's size says anything about the target.
              drainedIn30s: EVENTS >= 24_000 ? result.drained && result.drainSeconds < 30 : null
            }
          }
          : {})
      }
    }
  }
  return {
    name: `record.created webhooks: ${EVENTS} events from one ingest, to a receiver that answers 204 at once`,
    targets: { eventsPerSecondWith2Workers: 1_000, drain24000Within: "30 s" },
    ...results
  }
}

import { createServer, type Server } from "node:http"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Layer, ManagedRuntime } from "effect"
import { WorkerProcessLive } from "../../src/cli/WorkerCommand.js"
import { GlossConfig } from "../../src/Config.js"
import { TracingLive } from "../../src/Tracing.js"
import { datasetPath, publishedDataset, send } from "../support/datasets.js"
import { freshDatabase } from "../support/databases.js"
import { ownerClient, TestServerLive } from "../support/server.js"

interface Collector {
  readonly url: string
  readonly spanNames: () => ReadonlyArray<string>
  readonly requests: () => number
}

/** An OTLP/HTTP collector on loopback that keeps the names of the spans it receives. */
const collector = (): Promise<Collector & { readonly server: Server }> =>
  new Promise((resolve) => {
    const names: Array<string> = []
    let requests = 0
    const server = createServer((request, response) => {
      let body = ""
      request.on("data", (chunk: Buffer) => (body += chunk.toString()))
      request.on("end", () => {
        requests++
        const payload = JSON.parse(body) as {
          resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: Array<{ name: string }> }> }>
        }
        for (const resource of payload.resourceSpans ?? []) {
          for (const scope of resource.scopeSpans ?? []) for (const span of scope.spans ?? []) names.push(span.name)
        }
        response.writeHead(200, { "content-type": "application/json" }).end("{}")
      })
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      resolve({ server, url: `http://127.0.0.1:${port}`, spanNames: () => names, requests: () => requests })
    })
  })

const waitFor = (check: () => boolean) =>
  Effect.promise(async () => {
    const until = Date.now() + 15_000
    while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
  })

const traced = await collector()
const quiet = await collector()
const switchedOn = await collector()
const workerTraces = await collector()

describe("tracing", () => {
  layer(
    TestServerLive("sqlite", { OTEL_EXPORTER_OTLP_ENDPOINT: traced.url, OTEL_BSP_SCHEDULE_DELAY: "100" }),
    { excludeTestServices: true, timeout: 60_000 }
  )("with OTEL_EXPORTER_OTLP_ENDPOINT", (it) => {
    it.effect("requests, service methods and SQL statements are exported as spans", () =>
      Effect.gen(function*() {
        const owner = yield* ownerClient
        yield* owner.workspaces.create({ payload: { name: "traced" } })
        yield* owner.users.list()
        yield* waitFor(() => traced.spanNames().includes("Workspaces.create") && traced.spanNames().includes("Users.list"))
        const names = traced.spanNames()
        expect(names).toContain("Workspaces.create")
        expect(names).toContain("Users.list")
        expect(names.some((name) => name.startsWith("http.server"))).toBe(true)
        expect(names).toContain("sql.execute")
      }))

    it.effect("searches and background jobs are exported as spans too", () =>
      Effect.gen(function*() {
        const dataset = yield* publishedDataset()
        expect((yield* send("POST", datasetPath(dataset, "/records/bulk"), { items: [{ fields: { text: "traced words" } }] })).status).toBe(201)
        expect((yield* send("POST", datasetPath(dataset, "/records/search"), { query: { text: { q: "traced" } } })).status).toBe(200)
        // A new min_submitted is applied by a background job.
        expect((yield* send("PATCH", datasetPath(dataset), { distribution: { strategy: "overlap", min_submitted: 2 } })).status).toBe(200)
        yield* waitFor(() => traced.spanNames().includes("Jobs.run") && traced.spanNames().includes("DatabaseEngine.search"))
        const names = traced.spanNames()
        expect(names).toContain("Search.records")
        expect(names).toContain("DatabaseEngine.search")
        expect(names).toContain("Jobs.run")
      }))
  })

  it.effect("without an endpoint the tracer stays Effect's own in-process one, switched off: nothing is exported, no span is made", () =>
    Effect.gen(function*() {
      const standard = yield* Effect.tracer
      const unset = yield* Effect.tracer.pipe(Effect.provide(TracingLive), Effect.provide(GlossConfig.fromRecord({})))
      expect(unset).toBe(standard)
      // A span made where no one collects them is a no-op one: no clock reads, attributes or parent bookkeeping.
      const spanUnset = yield* Effect.withSpan(Effect.currentSpan, "unset").pipe(
        Effect.provide(TracingLive),
        Effect.provide(GlossConfig.fromRecord({}))
      )
      expect(spanUnset).toMatchObject({ name: "unset", spanId: "noop", sampled: false })
      // A root span: one that took a parent from the fiber (files share a fork in this tier) would take that
      // parent's sampling decision, which is not what this checks.
      const spanSet = yield* Effect.withSpan(Effect.currentSpan, "set", { root: true }).pipe(
        Effect.provide(TracingLive),
        Effect.provide(GlossConfig.fromRecord({ OTEL_EXPORTER_OTLP_ENDPOINT: switchedOn.url }))
      )
      expect(spanSet).toMatchObject({ name: "set", sampled: true })
      expect(spanSet.spanId).not.toBe("noop")
      const set = yield* Effect.tracer.pipe(
        Effect.provide(TracingLive),
        Effect.provide(GlossConfig.fromRecord({ OTEL_EXPORTER_OTLP_ENDPOINT: quiet.url }))
      )
      expect(set).not.toBe(standard)
      expect(quiet.requests()).toBe(0)
    }).pipe(Effect.scoped))

  // The server runs no jobs here; a `gloss worker` process does, and exports their spans. The worker gets a
  // runtime of its own, as a separate process would (layers shared with the server would be built only once).
  const workerProcess = (env: Record<string, string>) =>
    Layer.scopedDiscard(Effect.gen(function*() {
      const worker = yield* Effect.acquireRelease(
        Effect.sync(() =>
          ManagedRuntime.make(WorkerProcessLive(1).pipe(Layer.provide(GlossConfig.fromRecord({
            ...env,
            GLOSS_LOG_LEVEL: "error",
            OTEL_EXPORTER_OTLP_ENDPOINT: workerTraces.url,
            OTEL_BSP_SCHEDULE_DELAY: "100"
          }))))
        ),
        (runtime) => Effect.promise(() => runtime.dispose())
      )
      yield* Effect.promise(() => worker.runtime())
    }))
  layer(
    Layer.unwrapScoped(Effect.map(freshDatabase("sqlite"), ({ env }) =>
      Layer.merge(TestServerLive("sqlite", { ...env, GLOSS_JOB_WORKERS: "0" }), workerProcess(env)))),
    { excludeTestServices: true, timeout: 60_000 }
  )("in a worker process", (it) => {
    it.effect("the jobs a worker runs are exported as spans", () =>
      Effect.gen(function*() {
        const dataset = yield* publishedDataset()
        expect((yield* send("PATCH", datasetPath(dataset), { distribution: { strategy: "overlap", min_submitted: 3 } })).status).toBe(200)
        yield* waitFor(() => workerTraces.spanNames().includes("Jobs.run"))
        expect(workerTraces.spanNames()).toContain("Jobs.run")
        expect(workerTraces.spanNames()).toContain("sql.execute")
      }))
  })
})


/**
 * How often a bulk upsert of existing records reads what it already has. The SQL client opens a `sql.execute` span
 * for every statement; a tracer that only collects their text counts the reads of one upsert, so that the
 * settings, the record rows and their answers are read at most once each.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Duration, Effect, Layer, Tracer } from "effect"
import type { User } from "../../src/domain/User.js"
import { Datasets } from "../../src/services/datasets/Datasets.js"
import { Fields } from "../../src/services/datasets/Fields.js"
import { MetadataProperties } from "../../src/services/datasets/MetadataProperties.js"
import { Questions } from "../../src/services/datasets/Questions.js"
import { VectorSettings } from "../../src/services/datasets/VectorSettings.js"
import { Ingest } from "../../src/services/records/ingest/Ingest.js"
import { Records } from "../../src/services/records/Records.js"
import { Users } from "../../src/services/users/Users.js"
import { WebhookSettings } from "../../src/services/webhooks/settings.js"
import { Workspaces } from "../../src/services/workspaces/Workspaces.js"
import { dialects } from "../support/databases.js"
import { servicesOnFreshDatabase } from "../support/services.js"

const ServicesTest = (dialect: (typeof dialects)[number]) =>
  servicesOnFreshDatabase(
    dialect,
    Layer.mergeAll(
      Users.Default,
      Workspaces.Default,
      Datasets.Default,
      Fields.Default,
      Questions.Default,
      MetadataProperties.Default,
      VectorSettings.Default,
      Ingest.Default,
      Records.Default
    ).pipe(
      // Whether webhooks want an event is cached for a second, and a refresh is a read: on a slow machine (CI) the
      // cache the setup filled expired inside the counted upsert, which then read `webhooks` once. Not what is counted.
      Layer.provide(Layer.succeed(WebhookSettings, { ...WebhookSettings.defaultValue(), subscriptionsTtl: Duration.minutes(10) }))
    )
  )

/** The text of every SQL statement `effect` runs (its own fiber and those it forks). */
const statementsOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const statements: Array<string> = []
    let next = 0
    const tracer = Tracer.make({
      span: (name, parent, context, links, startTime, kind) => ({
        _tag: "Span",
        name,
        spanId: String(next++),
        traceId: "counting",
        parent,
        context,
        status: { _tag: "Started", startTime },
        attributes: new Map(),
        links,
        sampled: true,
        kind,
        end: () => undefined,
        attribute: (key, value) => {
          if (name === "sql.execute" && key === "db.query.text") statements.push(String(value))
        },
        event: () => undefined,
        addLinks: () => undefined
      }),
      context: (f) => f()
    })
    const result = yield* Effect.withTracer(effect, tracer)
    return { result, statements }
  })

/**
 * Reads by table: `select … from <table>` (the first table named after `from`). The SQLite engine's lookup of the
 * records' rowids (the keys of its full-text table) is the engine's own, not a read of the rows: left out. So is the
 * vector index's count of a settings' vectors after the write (whether it is past GLOSS_VECTOR_ANN_FROM); on
 * SQLite it runs on the search reader, outside the traced statements. Reads sent together (`Database.readTogether`:
 * one text of several statements, on PostgreSQL) count as the reads they hold.
 */
const readsByTable = (statements: ReadonlyArray<string>) => {
  const reads: Record<string, number> = {}
  for (const statement of statements.flatMap((text) => text.split(/;\n/))) {
    if (/^\s*select id, rowid from records\b/i.test(statement)) continue
    if (/^\s*select count\(\*\) as n from vectors where vector_settings_id\b/i.test(statement)) continue
    const table = /^\s*select\b[\s\S]*?\bfrom\s+"?(\w+)/i.exec(statement)?.[1]
    if (table !== undefined) reads[table] = (reads[table] ?? 0) + 1
  }
  return reads
}

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(ServicesTest(dialect), { excludeTestServices: true, timeout: 60_000 })("bulk upsert", (it) => {
      it.effect("an upsert of existing records reads the settings, the rows and their answers once each", () =>
        Effect.gen(function*() {
          const users = yield* Users
          const owner: User = yield* users.createTrusted({
            first_name: "Owner",
            username: "reads-owner",
            role: "owner",
            password: "owner-password"
          })
          const annotator = yield* users.createTrusted({ first_name: "Ann", username: "reads-annotator", password: "annotator-password" })
          const workspace = yield* (yield* Workspaces).createTrusted({ name: "reads" })
          const datasets = yield* Datasets
          const dataset = yield* datasets.create(owner, { name: "reads", workspace_id: workspace.id })
          yield* (yield* Fields).create(owner, dataset.id, { name: "text", title: "Text", settings: { type: "text" } })
          const question = yield* (yield* Questions).create(owner, dataset.id, {
            name: "label",
            title: "Label",
            required: true,
            settings: { type: "label_selection", options: [{ value: "a", text: "A" }, { value: "b", text: "B" }] }
          })
          yield* (yield* MetadataProperties).create(owner, dataset.id, { name: "source", title: "Source", settings: { type: "terms" } })
          yield* (yield* VectorSettings).create(owner, dataset.id, { name: "embedding", title: "Embedding", dimensions: 2 })
          yield* datasets.publish(owner, dataset.id)

          const ingest = yield* Ingest
          const items = (label: string, answered: boolean) =>
            Array.from({ length: 3 }, (_, i) => ({
              external_id: `record-${i}`,
              fields: { text: `text ${i}` },
              metadata: { source: label },
              responses: answered
                ? [{ user_id: annotator.id, status: "submitted" as const, values: { label: { value: label } } }]
                : [],
              suggestions: [{ question_id: question.id, value: label }],
              vectors: { embedding: [i, 1] }
            }))
          yield* ingest.upsert(owner, dataset.id, items("a", false))

          // The responses complete the records: their status is recomputed in the write, and answered as stored.
          const { result, statements } = yield* statementsOf(ingest.upsert(owner, dataset.id, items("b", true)))
          expect(result.updated_item_ids).toHaveLength(3)
          expect(result.items.map((record) => [record.metadata, record.status, record.responses?.length])).toEqual(
            Array.from({ length: 3 }, () => [{ source: "b" }, "completed", 1])
          )
          const listed = yield* (yield* Records).list(owner, dataset.id, {
            offset: 0,
            limit: 10,
            include: ["responses,suggestions,vectors"]
          })
          expect(result.items).toEqual(listed.items)
          // Before: the dataset and each settings table twice, the records 4 times, their answers twice.
          expect(readsByTable(statements)).toEqual({
            datasets: 1,
            fields: 1,
            questions: 1,
            metadata_properties: 1,
            vectors_settings: 1,
            // the stored records, by the payload's external ids
            records: 1,
            users: 1,
            responses: 1,
            suggestions: 1,
            vectors: 1
          })
        }))
    })
  })
}

import { Duration, Effect, Either, Option } from "effect"
import { GlossConfig } from "../../Config.js"
import { MissingVector, ServiceUnavailable, Unprocessable } from "../../domain/Errors.js"
import type { DatasetId, MetadataPropertyId, RecordId } from "../../domain/Ids.js"
import type { SearchRecordsQuery } from "../../domain/Search.js"
import type { User } from "../../domain/User.js"
import { Datasets } from "../datasets/Datasets.js"
import { SettingsRepo } from "../datasets/SettingsRepo.js"
import { orNotFound } from "../found.js"
import { AnswersRepo } from "./AnswersRepo.js"
import { includeOrFail } from "./Records.js"
import { RecordsRepo } from "./RecordsRepo.js"
import type { RecordRow } from "../../codecs/recordRows.js"
import { searchableBy, Viewers } from "../datasets/viewer.js"
import { RecordViews } from "./views.js"
import { resolveQuery, vectorReference } from "../search/resolve.js"
import { SearchEngine } from "../search/SearchEngine.js"
import { SearchIndex } from "./SearchIndex.js"
import { failAfter } from "./deadline.js"

export interface SearchParams {
  readonly offset?: number | undefined
  readonly limit?: number | undefined
  readonly include?: ReadonlyArray<string> | undefined
}

interface Page {
  readonly offset: number
  readonly limit: number
}

const invalid = (detail: string) => new Unprocessable({ detail })

/** Whether a search body filters or sorts on suggestions (which blind mode hides from annotators). */
const searchesSuggestions = (body: SearchRecordsQuery): boolean =>
  (body.filters?.and ?? []).some((filter) => filter.scope.entity === "suggestion") ||
  (body.sort ?? []).some((order) => order.scope.entity === "suggestion")

/** The seconds as people write them: "15", "0.5". */
const seconds = (value: number) => String(Number(value.toFixed(3)))

/** Searching records and what is computed over them: metadata metrics, suggestion agents. */
export class Search extends Effect.Service<Search>()("Gloss/Search", {
  effect: Effect.gen(function*() {
    const engine = yield* SearchEngine
    const index = yield* SearchIndex
    const datasets = yield* Datasets
    const records = yield* RecordsRepo
    const answers = yield* AnswersRepo
    const settings = yield* SettingsRepo
    const views = yield* RecordViews
    const viewers = yield* Viewers
    const { search: { timeoutSeconds } } = yield* GlossConfig

    /**
     * A search's time budget (`GLOSS_SEARCH_TIMEOUT_SECONDS`), waiting for the engine included: past it the search
     * is interrupted, which stops its work (the built-in engine's worker thread on SQLite, its query on
     * PostgreSQL, the request to a cluster), and the caller gets a 503 rather than a request that never ends.
     * A client that goes away interrupts the search the same way.
     */
    const withinBudget = <A, E, R>(search: Effect.Effect<A, E, R>) =>
      failAfter(search, Duration.seconds(timeoutSeconds), () =>
        new ServiceUnavailable({
          detail: `The search did not finish within ${seconds(timeoutSeconds)} s and was stopped; ` +
            "try fewer words or narrower filters, or try again later"
        }))

    /**
     * The engine query for a search body, every name resolved in what the caller may see (a 422 otherwise); `None`
     * for a dataset that is not published (it has no records and no index yet).
     */
    const prepare = (actor: User, datasetId: DatasetId, body: SearchRecordsQuery, page: Page, mine: boolean) =>
      Effect.gen(function*() {
        // The settings are read with the dataset, before the access check: on PostgreSQL in the same round trip.
        // A caller the check refuses gets its error and never the settings.
        const { dataset, schema } = yield* datasets.accessWithSchema(
          actor,
          datasetId,
          mine ? "records.searchOwn" : "records.searchAll"
        )
        if (dataset.status !== "ready") return { dataset, prepared: Option.none() }
        const viewer = yield* viewers.of(actor, dataset, mine)
        if (viewer.suggestionsHiddenFrom !== undefined && searchesSuggestions(body)) {
          return yield* invalid(
            "This dataset is blind: suggestions are hidden until you submit, so a search cannot filter or sort on them"
          )
        }
        const reference = yield* Either.mapLeft(vectorReference(body), invalid)
        let referenceVector: ReadonlyArray<number> | undefined
        if (reference !== undefined) {
          const name = body.query?.vector?.name ?? ""
          const settingsId = schema.vectorSettings.find((v) => v.name === name)?.id
          const record = yield* records.findById(reference)
          if (Option.isNone(record) || record.value.dataset_id !== datasetId) {
            return yield* invalid(`Record with id \`${reference}\` not found in dataset \`${dataset.name}\``)
          }
          if (settingsId !== undefined) {
            const stored = yield* answers.vectorOf(reference, settingsId)
            if (Option.isNone(stored)) {
              return yield* new MissingVector({
                message: `Record \`${reference}\` does not have a vector for vector settings \`${name}\``
              })
            }
            referenceVector = stored.value.value
          }
        }
        const query = yield* Either.mapLeft(
          resolveQuery({
            schema: searchableBy(viewer, schema),
            datasetName: dataset.name,
            body,
            offset: page.offset,
            limit: page.limit,
            user: mine ? actor.id : undefined,
            referenceVector
          }),
          invalid
        )
        return { dataset, prepared: Option.some({ schema, viewer, query }) }
      })

    const searchRecords = Effect.fn("Search.records")(
      function*(actor: User, datasetId: DatasetId, body: SearchRecordsQuery, params: SearchParams, mine: boolean) {
        const include = yield* includeOrFail(params.include)
        const { prepared } = yield* prepare(actor, datasetId, body, { offset: params.offset ?? 0, limit: params.limit ?? 50 }, mine)
        if (Option.isNone(prepared)) return { items: [], total: 0, total_relation: "eq" as const }
        const { query, schema, viewer } = prepared.value
        const { hits, total, totalRelation } = yield* withinBudget(engine.search(schema, query))
        const rows = new Map<string, RecordRow>((yield* records.findByIds(datasetId, hits.map((h) => h.id))).map((r) => [r.id, r]))
        const found = hits.flatMap((hit) => {
          const row = rows.get(hit.id)
          return row === undefined ? [] : [{ row, score: hit.score }]
        })
        const shown = yield* views.show(found.map((f) => f.row), include, viewer)
        return {
          items: shown.map((record, i) => ({ record, query_score: found[i]?.score ?? null })),
          total,
          total_relation: totalRelation
        }
      }
    )

    /**
     * Checks a search body as `POST /me/datasets/{id}/records/search` does (404, 403, 422), and returns how to read
     * the ids of every record it matches for the caller, however many: the matches of its text and filters, or,
     * with a vector, the `limit` most (least) similar ones, as the search would return them.
     */
    const matchingIdsOf = Effect.fn("Search.matchingIdsOf")(
      function*(actor: User, datasetId: DatasetId, body: SearchRecordsQuery, limit: number) {
        const { dataset, prepared } = yield* prepare(actor, datasetId, body, { offset: 0, limit }, true)
        const read: Effect.Effect<ReadonlyArray<RecordId>> = Option.match(prepared, {
          onNone: () => Effect.succeed([]),
          onSome: ({ query, schema }) =>
            query.vector === undefined
              ? engine.matchingIds(schema, query)
              : Effect.map(engine.search(schema, query), ({ hits }) => hits.map((hit) => hit.id))
        })
        return { dataset, read }
      }
    )

    const metadataMetrics = Effect.fn("Search.metadataMetrics")(function*(actor: User, id: MetadataPropertyId) {
      const property = yield* settings.metadataProperties.findById(id).pipe(orNotFound("MetadataProperty", id))
      const dataset = yield* datasets.access(actor, property.dataset_id, "datasets.read")
      yield* viewers.requireShown(actor, dataset, property)
      if (dataset.status !== "ready") {
        return property.settings.type === "terms"
          ? { type: "terms" as const, total: 0, values: [] }
          : { type: property.settings.type, min: null, max: null }
      }
      return yield* engine.metadataMetrics(yield* index.schemaOf(property.dataset_id), property)
    })

    const suggestionsOptions = Effect.fn("Search.suggestionsOptions")(function*(actor: User, datasetId: DatasetId) {
      yield* datasets.access(actor, datasetId, "datasets.read")
      const [questions, agents] = yield* Effect.all([settings.questions.listByDataset(datasetId), answers.agents(datasetId)])
      return {
        items: questions.map((question) => ({
          question: { id: question.id, name: question.name },
          agents: agents.filter((a) => a.question_id === question.id).map((a) => a.agent)
        }))
      }
    })

    return { searchRecords, matchingIdsOf, metadataMetrics, suggestionsOptions } as const
  }),
  dependencies: [
    SearchIndex.Default,
    Datasets.Default,
    RecordsRepo.Default,
    AnswersRepo.Default,
    SettingsRepo.Default,
    RecordViews.Default,
    Viewers.Default
  ]
}) {}

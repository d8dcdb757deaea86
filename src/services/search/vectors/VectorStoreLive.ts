/**
 * The vector store, put together once per server: each collaborator below is built here and only here, and handed
 * to those that use it. The lifecycle they share is in this folder's README.
 */
import { Effect, Layer, Schema } from "effect"
import { GlossConfig } from "../../../Config.js"
import type { DatasetId } from "../../../domain/Ids.js"
import { Database } from "../../database/Database.js"
import { SearchReads } from "../database/SearchReads.js"
import { annFiles } from "./ann/annFiles.js"
import { makeAnnIndex } from "./ann/AnnIndex.js"
import { makeAnnWorker } from "./ann/AnnWorker.js"
import { annThreshold } from "./annThreshold.js"
import { makeVectorCopies } from "./copies.js"
import { makeMatrices } from "./matrices.js"
import { makeRank } from "./rank.js"
import { vectorRows } from "./rows.js"
import { VectorStore } from "./VectorStore.js"

const decodeIds = Schema.decodeUnknown(Schema.Array(Schema.Struct({ id: Schema.String })))

export const VectorStoreLive: Layer.Layer<VectorStore, never, Database | GlossConfig | SearchReads> = Layer.scoped(
  VectorStore,
  Effect.gen(function*() {
    const { sql } = yield* Database
    const { database, home, search } = yield* GlossConfig
    const reads = yield* SearchReads
    // An in-memory database does not outlive the process: neither do the indexes built from it.
    const inMemory = database._tag === "Sqlite" && database.filename === ":memory:"
    const rows = vectorRows(sql, reads.read, { scoresInSql: reads.scoresInSql })
    const annFrom = annThreshold(search.vectorAnnFrom)
    const matrices = makeMatrices(sql, annFrom)
    // Started before the index, so that its worker is stopped after it: the indexes are saved at shutdown first.
    const worker = yield* makeAnnWorker
    // Where rescoring scores values rather than reading scores from SQL (PostgreSQL), it reads copies beside the index.
    const copies = inMemory || reads.scoresInSql ? undefined : yield* makeVectorCopies(home)
    const ann = yield* makeAnnIndex({ rows, worker, files: inMemory ? undefined : annFiles(home), copies, annFrom })
    yield* Effect.addFinalizer(() => ann.saveAll)
    const { rank } = makeRank({ exact: matrices, ann, copies, rows })

    const settingsOf = (datasetId: DatasetId) =>
      Effect.map(
        Effect.orDie(Effect.flatMap(sql`select id from vectors_settings where dataset_id = ${datasetId}`, decodeIds)),
        (found) => found.map((row) => row.id)
      )

    return VectorStore.of({
      rank,
      written: (settings, vectors = []) =>
        Effect.suspend(() => {
          const list = [...settings]
          return Effect.zipRight(matrices.drop(list.map((s) => s.id)), ann.written(list, vectors))
        }),
      deleted: Effect.zipRight(matrices.dropAll, ann.deleted),
      // A reindex finds the dataset's settings and forgets their indexes; once a dataset is deleted none are found,
      // and `prune` drops the indexes whose settings are gone.
      forgetDataset: (datasetId) =>
        Effect.all([matrices.dropAll, Effect.flatMap(settingsOf(datasetId), ann.forget), ann.prune], { discard: true }),
      save: ann.saveAll
    })
  })
)

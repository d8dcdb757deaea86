import { SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { DbInt } from "../../codecs/columns.js"
import { intOf } from "../../codecs/plainRows.js"
import { decodeRecordRows, encodeRecordRow, RecordRow, recordRowsDocument } from "../../codecs/recordRows.js"
import { DatasetId, RecordId } from "../../domain/Ids.js"
import { Database } from "../database/Database.js"
import { forUpdate, insertionOrder, notIndexed } from "../database/ddl.js"

const InDataset = Schema.Struct({ datasetId: DatasetId, ids: Schema.Array(Schema.String) })

export class RecordsRepo extends Effect.Service<RecordsRepo>()("Gloss/RecordsRepo", {
  effect: Effect.gen(function*() {
    const { sql } = yield* Database
    const order = sql.unsafe(insertionOrder(sql))
    const lock = sql.unsafe(forUpdate(sql))
    const byKey = sql.unsafe(notIndexed(sql))

    const findById = SqlSchema.findOne({
      Request: RecordId,
      Result: RecordRow,
      execute: (id) => sql`select * from records where id = ${id}`
    })
    /** The record, locked until the transaction ends (PostgreSQL): responses to one record queue up behind it. */
    const findForUpdate = SqlSchema.findOne({
      Request: RecordId,
      Result: RecordRow,
      execute: (id) => sql`select * from records where id = ${id} ${lock}`
    })
    // In id order, so that two writers locking overlapping sets cannot deadlock.
    const findManyForUpdate = SqlSchema.findAll({
      Request: Schema.Array(Schema.String),
      Result: RecordRow,
      execute: (ids) => sql`select * from records where ${sql.in("id", ids)} order by id ${lock}`
    })
    // By primary key only, the dataset checked below: given `dataset_id = ?` too (or an order by rowid), SQLite's
    // planner walks the dataset's index over every record of the dataset instead of looking the ids up, a cost that
    // grows with the dataset. The rows are decoded by hand (see decodeRecordRows): every
    // search reads its page here.
    const findByIds = (ids: ReadonlyArray<string>) =>
      Effect.flatMap(sql`select * from records where ${sql.in("id", ids)}`, decodeRecordRows)
    const findByExternalIds = SqlSchema.findAll({
      Request: InDataset,
      Result: RecordRow,
      execute: ({ datasetId, ids }) =>
        ids.length === 0
          ? sql`select * from records where 1 = 0`
          : sql`select * from records where dataset_id = ${datasetId} and ${sql.in("external_id", ids)}`
    })
    // Listings and reindexing read their pages here: decoded by hand, as findByIds.
    const page = (datasetId: DatasetId, offset: number, limit: number) =>
      Effect.flatMap(
        sql`select * from records where dataset_id = ${datasetId} order by ${order} limit ${limit} offset ${offset}`,
        decodeRecordRows
      )
    // Every record of a dataset (a reindex, an export) is read by keyset on the insertion order: an offset reads and
    // drops every record before it, so a walk through the dataset grows with the square of its size (minutes at a
    // million records on PostgreSQL). SQLite must walk the table in rowid order (`+dataset_id`), or it serves the
    // page from the (dataset_id, status) index and sorts every record of the dataset for each page.
    const pageAfter = (datasetId: DatasetId, after: number | undefined, limit: number) =>
      Effect.gen(function*() {
        const raw = yield* sql<{ readonly insertion_key: unknown }>`select ${order} as insertion_key, * from records
          where ${byKey}dataset_id = ${datasetId}${after === undefined ? sql`` : sql` and ${order} > ${after}`}
          order by ${order} limit ${limit}`
        const last = raw.length < limit ? undefined : intOf(raw[raw.length - 1]?.insertion_key)
        return { rows: yield* decodeRecordRows(raw), next: last }
      })
    const count = SqlSchema.single({
      Request: DatasetId,
      Result: Schema.Struct({ n: DbInt }),
      execute: (datasetId) => sql`select count(*) as n from records where dataset_id = ${datasetId}`
    })
    // The hot path of every bulk upsert, encoded by hand: on SQLite row by row (see encodeRecordRow), on PostgreSQL as
    // one JSON document that the server unpacks (see recordRowsDocument).
    const insertMany = (rows: ReadonlyArray<RecordRow>) =>
      sql.onDialectOrElse({
        pg: () =>
          sql`insert into records (id, dataset_id, external_id, fields, metadata, status, inserted_at, updated_at)
            select * from jsonb_to_recordset(${recordRowsDocument(rows)}::jsonb) as r(id uuid, dataset_id uuid,
              external_id text, fields jsonb, metadata jsonb, status text, inserted_at timestamptz, updated_at timestamptz)`,
        orElse: () => sql`insert into records ${sql.insert(rows.map(encodeRecordRow))}`
      }).pipe(Effect.asVoid)
    // Everything but the status, which only `recompute` writes, under the record's lock: a row read before an
    // annotator completed the record and written back after would otherwise set it back to pending. The status as
    // stored comes back, so that what is shown and indexed is not the one read before.
    const replace = SqlSchema.findOne({
      Request: RecordRow,
      Result: Schema.Struct({ status: RecordRow.fields.status }),
      execute: (row) => sql`update records set ${sql.update(row, ["id", "status"])} where id = ${row.id} returning status`
    })
    const deleteIds = SqlSchema.findAll({
      Request: InDataset,
      Result: Schema.Struct({ id: RecordId }),
      execute: ({ datasetId, ids }) =>
        sql`delete from records where dataset_id = ${datasetId} and ${sql.in("id", ids)} returning id`
    })

    /** Which of these ids exist, in which dataset (a client-chosen id must not collide across datasets). */
    const owners = SqlSchema.findAll({
      Request: Schema.Array(Schema.String),
      Result: Schema.Struct({ id: RecordId, dataset_id: DatasetId }),
      execute: (ids) => sql`select id, dataset_id from records where ${sql.in("id", ids)}`
    })
    const completed = (min: number) =>
      sql`case when (select count(*) from responses r where r.record_id = records.id and r.status = 'submitted') >= ${min}
            then 'completed' else 'pending' end`
    /** Sets each record's status from its submitted responses (completed when there are at least `min`). */
    const recompute = SqlSchema.findAll({
      Request: Schema.Struct({ ids: Schema.Array(Schema.String), min: Schema.Int }),
      Result: Schema.Struct({ id: RecordId, status: Schema.Literal("pending", "completed") }),
      execute: ({ ids, min }) => sql`update records set status = ${completed(min)} where ${sql.in("id", ids)} returning id, status`
    })
    /** The same for every record of a dataset that has a response (the others stay pending). */
    const recomputeDataset = SqlSchema.findAll({
      Request: Schema.Struct({ datasetId: DatasetId, min: Schema.Int }),
      Result: Schema.Struct({ id: RecordId, status: Schema.Literal("pending", "completed") }),
      execute: ({ datasetId, min }) =>
        sql`update records set status = ${completed(min)} where dataset_id = ${datasetId}
              and exists (select 1 from responses r where r.record_id = records.id) returning id, status`
    })

    return {
      owners: (ids: ReadonlyArray<string>) => ids.length === 0 ? Effect.succeed([]) : owners(ids).pipe(Effect.orDie),
      recompute: (ids: ReadonlyArray<string>, min: number) =>
        ids.length === 0 ? Effect.succeed([]) : recompute({ ids, min }).pipe(Effect.orDie),
      recomputeDataset: (datasetId: DatasetId, min: number) => recomputeDataset({ datasetId, min }).pipe(Effect.orDie),
      findById: (id: RecordId) => findById(id).pipe(Effect.orDie),
      findForUpdate: (id: RecordId) => findForUpdate(id).pipe(Effect.orDie),
      /** Several records, locked as `findForUpdate` locks one. */
      findManyForUpdate: (ids: ReadonlyArray<RecordId>) =>
        ids.length === 0 ? Effect.succeed([]) : findManyForUpdate(ids).pipe(Effect.orDie),
      /** The records of `ids` that exist in the dataset, in the order of `ids`. */
      findByIds: (datasetId: DatasetId, ids: ReadonlyArray<string>) =>
        ids.length === 0 ? Effect.succeed([]) : findByIds(ids).pipe(
          Effect.map((rows) => {
            const position = new Map(ids.map((id, i) => [id, i]))
            return rows
              .filter((row) => row.dataset_id === datasetId)
              .sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0))
          }),
          Effect.orDie
        ),
      findByExternalIds: (datasetId: DatasetId, ids: ReadonlyArray<string>) =>
        findByExternalIds({ datasetId, ids }).pipe(Effect.orDie),
      page: (datasetId: DatasetId, offset: number, limit: number) => page(datasetId, offset, limit).pipe(Effect.orDie),
      /**
       * Up to `limit` records of the dataset in insertion order, after the `next` of the page before (undefined for the
       * first); `next` is undefined on the last page.
       */
      pageAfter: (datasetId: DatasetId, after: number | undefined, limit: number) =>
        pageAfter(datasetId, after, limit).pipe(Effect.orDie),
      count: (datasetId: DatasetId) => count(datasetId).pipe(Effect.map(({ n }) => n), Effect.orDie),
      insertMany: (rows: ReadonlyArray<RecordRow>) => rows.length === 0 ? Effect.void : insertMany(rows).pipe(Effect.orDie),
      /** Writes the row but its status; gives the row as stored (its status, which answers may have changed). */
      replace: (row: RecordRow) =>
        replace(row).pipe(
          Effect.map(Option.match({ onNone: () => row, onSome: ({ status }) => status === row.status ? row : { ...row, status } })),
          Effect.orDie
        ),
      deleteIds: (datasetId: DatasetId, ids: ReadonlyArray<string>) =>
        ids.length === 0 ? Effect.succeed([]) : deleteIds({ datasetId, ids }).pipe(Effect.map((rows) => rows.map((r) => r.id)), Effect.orDie)
    } as const
  }),
  dependencies: [Database.Default]
}) {}

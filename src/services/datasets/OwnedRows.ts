/**
 * The four tables of a dataset's settings (fields, questions, metadata properties, vector settings) have the same
 * shape and the same access paths: by id, by dataset in insertion order, insert unless the name is taken, replace,
 * delete. One definition serves them all.
 */
import { SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { DatasetId } from "../../domain/Ids.js"
import { Database } from "../database/Database.js"
import { insertionOrder } from "../database/ddl.js"
import { rememberedRows } from "../../codecs/plainRows.js"

interface OwnedRow {
  readonly id: string
  readonly name: string
  readonly dataset_id: DatasetId
}

export const ownedRows = <A extends OwnedRow, I extends Record<string, unknown> & { readonly id: string }>(
  table: string,
  Row: Schema.Schema<A, I>
) =>
  Effect.gen(function*() {
    const { sql } = yield* Database
    const order = sql.unsafe(insertionOrder(sql))
    const name = sql(table)

    const findById = SqlSchema.findOne({
      Request: Schema.String,
      Result: Row,
      execute: (id) => sql`select * from ${name} where id = ${id}`
    })
    // Every search and write reads its dataset's settings: rows read again unchanged are not decoded again.
    const decodeOfDataset = rememberedRows(Row)
    const listByDataset = (datasetId: DatasetId) =>
      Effect.flatMap(
        sql`select * from ${name} where dataset_id = ${datasetId} order by ${order}`,
        (rows) => decodeOfDataset(datasetId, rows)
      )
    /** `None` when the dataset already has one with that name (or the id is taken). */
    const insert = SqlSchema.findOne({
      Request: Row,
      Result: Row,
      execute: (row) => sql`insert into ${name} ${sql.insert(row)} on conflict do nothing returning *`
    })
    const replace = SqlSchema.findOne({
      Request: Row,
      Result: Row,
      execute: (row) => sql`update ${name} set ${sql.update(row, ["id"])} where id = ${row.id} returning *`
    })
    const remove = SqlSchema.void({ Request: Schema.String, execute: (id) => sql`delete from ${name} where id = ${id}` })

    return {
      /** The statement `listByDataset` reads, for reading several lists at once (SettingsRepo.allOfDataset). */
      listSql: (datasetId: string) => `select * from ${table} where dataset_id = '${datasetId}' order by ${insertionOrder(sql)}`,
      /** Rows that statement read, decoded as `listByDataset` decodes them. */
      decodeListed: (datasetId: DatasetId, rows: ReadonlyArray<unknown>) => decodeOfDataset(datasetId, rows).pipe(Effect.orDie),
      findById: (id: string) => findById(id).pipe(Effect.orDie),
      listByDataset: (datasetId: DatasetId) => listByDataset(datasetId).pipe(Effect.orDie),
      insert: (row: A) => insert(row).pipe(Effect.orDie),
      replace: (row: A) => replace(row).pipe(Effect.orDie),
      delete: (id: string) => remove(id).pipe(Effect.orDie)
    } as const
  })

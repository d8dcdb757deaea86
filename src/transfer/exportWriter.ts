/**
 * A file export written to a local file from pages of records, in one of the formats of `domain/Export.ts`: JSON
 * Lines and CSV line by line, Parquet a row group at a time (`hubParquet.ts`), the Argilla disk format as the
 * SDK's `to_disk` folder (`records.json` written element by element) zipped, and the training formats record by
 * record (`training.ts`). A page at a time, so that a dataset of any size is never in memory; the server's export
 * job then stores the file (src/services/exports/).
 */
import { mkdir, open, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { Effect, Stream } from "effect"
import type { ExportFormat } from "../domain/Export.js"
import type { DatasetRecord } from "../domain/Record.js"
import type { Dataset } from "./dataset.js"
import { TransferFileError } from "./errors.js"
import { csvHeader, csvRecordLine, jsonlLine, parquetColumns, parquetRow, type Usernames } from "./exportFiles.js"
import { FINAL_ANSWERS_FILE, finalAnswerLines, type FinalAnswersOf } from "./finalAnswers.js"
import { openParquetWriter } from "./hubParquet.js"
import {
  CONFIG_DIR,
  DATASET_FILE,
  questionIndex,
  RECORDS_FILE,
  sdkDatasetModel,
  sdkRecord,
  sdkSettings,
  SETTINGS_FILE
} from "./sdkFormat.js"
import { type TrainingPlan, trainingLines } from "./training.js"
import { writeZip } from "./zipFile.js"

/**
 * Beside the SDK's files in `.argilla/`: `[{"id", "username"}]` of the users whose responses are in `records.json`
 * (the SDK reads responses by user id only, and refuses any other key in a response).
 */
export const USERS_FILE = `${CONFIG_DIR}/users.json`

/**
 * One page of records with their final answers, and the usernames of the users who answered them or settled their
 * final answers.
 */
export interface ExportPage {
  readonly records: ReadonlyArray<DatasetRecord>
  readonly usernames: Usernames
  readonly finalAnswers: FinalAnswersOf
}

const fail = (path: string) => (cause: unknown) =>
  new TransferFileError({ path, detail: cause instanceof Error ? cause.message : String(cause) })

/** A text file written piece by piece. */
const textFile = (path: string) =>
  Effect.acquireRelease(
    Effect.tryPromise({ try: () => open(path, "w"), catch: fail(path) }),
    (handle) => Effect.promise(() => handle.close())
  ).pipe(Effect.map((handle) => ({
    write: (text: string) => Effect.tryPromise({ try: () => handle.write(text), catch: fail(path) }).pipe(Effect.asVoid)
  })))

/**
 * Writes the pages into `dir` and answers the file to store. `onPage` is called after each page with how many
 * records are read so far, and how many of them a training format left out. A training format needs its `plan`.
 */
export const writeExport = <E, R>(options: {
  readonly format: ExportFormat
  readonly dataset: Dataset
  readonly dir: string
  readonly pages: Stream.Stream<ExportPage, E, R>
  readonly onPage: (done: number, skipped: number) => Effect.Effect<void>
  readonly modified: Date
  readonly plan?: TrainingPlan | undefined
}) =>
  Effect.scoped(Effect.gen(function*() {
    const { dataset, dir, format, onPage, pages } = options
    const settings = dataset.settings
    let done = 0
    let skipped = 0
    const each = <E2>(write: (page: ExportPage) => Effect.Effect<void, E2>) =>
      Stream.runForEach(pages, (page) =>
        Effect.zipRight(write(page), Effect.suspend(() => {
          done += page.records.length
          return onPage(done, skipped)
        })))
    switch (format) {
      case "jsonl": {
        const path = join(dir, "records.jsonl")
        const file = yield* textFile(path)
        yield* each(({ finalAnswers, records, usernames }) =>
          file.write(records.map((record) => jsonlLine(record, usernames, finalAnswers)).join(""))
        )
        return path
      }
      case "csv": {
        const path = join(dir, "records.csv")
        const file = yield* textFile(path)
        yield* file.write(csvHeader(settings))
        yield* each(({ finalAnswers, records, usernames }) =>
          file.write(records.map((record) => csvRecordLine(record, settings, usernames, finalAnswers)).join(""))
        )
        return path
      }
      case "parquet": {
        const path = join(dir, "records.parquet")
        const writer = yield* openParquetWriter(path, parquetColumns(settings))
        yield* each(({ finalAnswers, records, usernames }) =>
          writer.append(records.map((record) => parquetRow(record, settings, usernames, finalAnswers)))
        )
        yield* writer.close
        return path
      }
      case "argilla-disk": {
        const folder = join(dir, "folder")
        const files = [DATASET_FILE, SETTINGS_FILE, USERS_FILE, RECORDS_FILE, FINAL_ANSWERS_FILE]
        yield* Effect.tryPromise({ try: () => mkdir(dirname(join(folder, DATASET_FILE)), { recursive: true }), catch: fail(folder) })
        const questions = questionIndex(settings.questions)
        const users = new Map<string, string>()
        const records = yield* textFile(join(folder, RECORDS_FILE))
        const finals = yield* textFile(join(folder, FINAL_ANSWERS_FILE))
        let first = true
        yield* records.write("[")
        yield* each(({ finalAnswers, records: page, usernames }) => {
          for (const record of page) {
            for (const response of record.responses ?? []) {
              const username = usernames.get(response.user_id)
              if (username !== undefined) users.set(response.user_id, username)
            }
          }
          const text = page.map((record) => JSON.stringify(sdkRecord(record, questions))).join(",")
          const written = first || text === "" ? text : `,${text}`
          if (text !== "") first = false
          return Effect.zipRight(
            records.write(written),
            finals.write(page.map((record) => finalAnswerLines(record, finalAnswers, usernames)).join(""))
          )
        })
        yield* records.write("]")
        const json = (file: string, value: unknown) =>
          Effect.tryPromise({ try: () => writeFile(join(folder, file), JSON.stringify(value)), catch: fail(file) })
        yield* json(DATASET_FILE, sdkDatasetModel(dataset))
        yield* json(SETTINGS_FILE, sdkSettings(dataset))
        yield* json(USERS_FILE, Array.from(users, ([id, username]) => ({ id, username })))
        const path = join(dir, "dataset.zip")
        yield* writeZip(path, files.map((name) => ({ name, path: join(folder, name) })), options.modified)
        return path
      }
      case "training-jsonl":
      case "conll":
      case "spacy":
      case "dpo": {
        const plan = options.plan
        if (plan === undefined || plan.format !== format) return yield* Effect.dieMessage(`a ${format} export needs its plan`)
        const path = join(dir, `training.${format}`)
        const file = yield* textFile(path)
        yield* each(({ finalAnswers, records }) =>
          file.write(records.map((record) => {
            const lines = trainingLines(plan, record, finalAnswers)
            if (lines === undefined) skipped += 1
            return lines ?? ""
          }).join(""))
        )
        return path
      }
    }
  }))

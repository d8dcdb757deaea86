/**
 * Where an ANN index is saved, so that a restart (or a crash) loads it and catches up instead of rebuilding a
 * million vectors: `<home>/vectors/<vector settings id>.json` names the segment files (under
 * `<home>/vectors/<vector settings id>/<set>/`, with their checksums) and the watermark they hold everything up to.
 * Segment files are written under new names and the JSON is replaced by a rename, so a crash at any moment leaves
 * the previous JSON and the files it names. The index is a cache: anything missing or unreadable means a rebuild.
 */
import { logDropped } from "../dropped.js"
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect, Option, Schema } from "effect"
import { SegmentFile } from "./annProtocol.js"

export const SavedIndex = Schema.Struct({
  version: Schema.Literal(1),
  dimensions: Schema.Number,
  /** The set's name: its files are under `<settings folder>/<set>/`. */
  set: Schema.String,
  /** Every vector written before this time (epoch milliseconds) is in the files (see AnnIndex's look-back). */
  watermark: Schema.Number,
  sealed: Schema.Array(SegmentFile),
  delta: Schema.NullOr(SegmentFile)
})
export type SavedIndex = typeof SavedIndex.Type
const decodeSaved = Schema.decodeUnknownOption(Schema.parseJson(SavedIndex))

export interface AnnFiles {
  /** The folder of a set's segment files (made when missing). */
  readonly folder: (settingsId: string, set: string) => Effect.Effect<string>
  readonly read: (settingsId: string) => Effect.Effect<Option.Option<SavedIndex>>
  /** Replaces the description atomically, then removes the files of the settings' other sets. */
  readonly write: (settingsId: string, saved: SavedIndex) => Effect.Effect<void>
  /** Removes everything saved for these settings. */
  readonly remove: (settingsId: string) => Effect.Effect<void>
}

/** The files of the indexes under `home`. Failing to write one is not a search failure: the index stays in memory. */
export const annFiles = (home: string): AnnFiles => {
  const root = path.join(home, "vectors")
  const json = (settingsId: string) => path.join(root, `${settingsId}.json`)
  const folderOf = (settingsId: string) => path.join(root, settingsId)
  const quietly = (run: () => void) => logDropped("Writing or removing a vector index file")(Effect.try(run))
  return {
    folder: (settingsId, set) =>
      Effect.sync(() => {
        const folder = path.join(folderOf(settingsId), set)
        fs.mkdirSync(folder, { recursive: true })
        return folder
      }),
    read: (settingsId) =>
      Effect.sync(() => {
        try {
          return decodeSaved(fs.readFileSync(json(settingsId), "utf8"))
        } catch {
          return Option.none()
        }
      }),
    write: (settingsId, saved) =>
      quietly(() => {
        const temporary = `${json(settingsId)}.tmp`
        fs.writeFileSync(temporary, JSON.stringify(saved))
        fs.renameSync(temporary, json(settingsId))
        for (const other of fs.readdirSync(folderOf(settingsId))) {
          if (other !== saved.set) fs.rmSync(path.join(folderOf(settingsId), other), { recursive: true, force: true })
        }
        const kept = new Set([...saved.sealed, ...(saved.delta === null ? [] : [saved.delta])].map((file) => file.path))
        const setFolder = path.join(folderOf(settingsId), saved.set)
        for (const file of fs.readdirSync(setFolder)) {
          const full = path.join(setFolder, file)
          if (!kept.has(full) && !file.endsWith(".tmp")) fs.rmSync(full, { force: true })
        }
      }),
    remove: (settingsId) =>
      quietly(() => {
        fs.rmSync(json(settingsId), { force: true })
        fs.rmSync(folderOf(settingsId), { recursive: true, force: true })
      })
  }
}

/**
 * The sets of an ANN index (AnnIndex): one build's segments in the worker thread, with its watermark. Filling a new
 * set from the database, catching one up with the vectors written since its watermark, and saving and reopening
 * one from its files. AnnIndex decides when each of these runs (and under which lock); nothing here schedules.
 */
import type { SqlError } from "@effect/sql"
import { Clock, Deferred, Effect, Fiber, Option, type ParseResult } from "effect"
import { float64sOf } from "../../../../codecs/vectorRows.js"
import type { AnnFiles } from "./annFiles.js"
import { type HandedVectors, makeHandedVectors } from "./handed.js"
import type { SegmentFile, SetState } from "./annProtocol.js"
import type { AnnWorker } from "./AnnWorker.js"
import { normalise } from "../math.js"
import type { VectorCopies } from "../copies.js"
import { type Stamp, type VectorRow, type VectorRows } from "../rows.js"
import type { WorkerCallError } from "../../workers/WorkerCalls.js"

/**
 * How far back from now a catch-up looks (when its watermark is more recent than that): longer than any write
 * transaction is expected to stay open, since a vector is stamped before its transaction commits. The
 * full window is looked at every RECHECK_MILLIS; the catch-ups after this process's own writes (several a second
 * during a bulk import) look back a shorter one, so that they do not re-read the keys of the last 30 s each time.
 */
export const LOOKBACK_MILLIS = 30_000
export const QUICK_LOOKBACK_MILLIS = 5_000
/** Vectors per message to the worker: a search waits behind at most one such batch (~0.2 s at 384 dimensions). */
const BATCH = 1_000
const STAMPS_PAGE = 20_000
/** Vectors read (and staged) at once by a first build: ~7.7 MB of float32s at 384 dimensions. */
const STAGE_PAGE = 5_000
/**
 * Vectors per segment. A search asks every segment, so fewer, larger segments search faster; the in-memory part of an
 * index (the delta) grows with them, to ~130 MB at 384 dimensions. On the scale benchmark's million vectors, four
 * segments of 250 000 search clearly faster than ten of 100 000 at the same recall, while two of 500 000 lose recall.
 * Asking each segment for half the count cost filtered searches recall (fewer candidates deep in the order, where a
 * filter's records are), so every segment is asked for the whole count (searchSegments). `npm run bench -- scale`
 * and `npm run bench -- quantisation` measure both choices.
 */
export const SEGMENT_VECTORS = 250_000

/** One build of an index: a named set of segments in the worker. */
export interface IndexSet {
  readonly name: string
  watermark: number
  /**
   * When the last catch-up (of either look-back) and the last full one began reading: a vector committed after that
   * is stamped at most a look-back before it. Infinity for a set opened from files, whose first catch-up reads
   * from the saved watermark (see AnnIndex).
   */
  readAt: number
  fullReadAt: number
  /** Keys applied with their time, for the vectors within the look-back window of the watermark. */
  readonly recent: Map<number, number>
  /**
   * The floor `recent` was last pruned to. Pruning walks the whole map (tens of thousands of keys after an import,
   * milliseconds of the event loop); while the floor stands still (nothing written) there is nothing to prune.
   */
  prunedFloor: number
  entries: number
  delta: number
  /** Of `entries`, those staged by a first build and not yet added to the graph (see `stage`). */
  staged: number
  readonly sealed: Array<SegmentFile>
  savedAt: number
  unsaved: boolean
}

/** An index of one vector settings, as AnnIndex keeps it: the set serving now, and the state of its upkeep. */
export interface Entry {
  readonly settingsId: string
  readonly dimensions: number
  current: IndexSet | undefined
  /** Done once a set serves (opened from files, or staged by a first build), or the start failed. */
  readonly ready: Deferred.Deferred<boolean>
  /** How many vectors the settings had when the entry was made (its size until a set serves). */
  readonly initialCount: number
  rebuilding: boolean
  /**
   * This process's writes (and deletions) since the entry was made, counted; `applied` is the count when the last
   * finished catch-up began reading. A search waits for a catch-up while `applied` is below the count it saw: one
   * already under way (begun after the writes) is waited for too, not only one still to start.
   */
  writes: number
  applied: number
  scheduled: boolean
  checkedAt: number
  countedAt: number
  /** The watermark when the database was last seen holding more vectors than the index. */
  missingAt: number | undefined
  readonly lock: Effect.Semaphore
  /** The vectors this process wrote, for its catch-ups to add without reading them back. */
  readonly handed: HandedVectors
}

/** A new entry for these settings, with no set yet; `initialCount` vectors when it was made. */
export const makeEntry = (settingsId: string, dimensions: number, initialCount: number): Effect.Effect<Entry> =>
  Effect.gen(function*() {
    return {
      settingsId,
      dimensions,
      current: undefined,
      ready: yield* Deferred.make<boolean>(),
      initialCount,
      rebuilding: false,
      writes: 0,
      applied: 0,
      scheduled: false,
      checkedAt: 0,
      countedAt: yield* Clock.currentTimeMillis,
      missingAt: undefined,
      lock: yield* Effect.makeSemaphore(1),
      handed: makeHandedVectors(dimensions)
    }
  })

/** A vector as the index adds it: its key, its time (epoch milliseconds) and its unit vector. */
interface Ready {
  readonly key: number
  readonly at: number
  readonly unit: Float32Array
}

/** What the index's work can fail with: a read of the database, or the worker. */
export type Failure = SqlError.SqlError | ParseResult.ParseError | WorkerCallError

const iso = (millis: number) => new Date(Math.max(0, millis)).toISOString()

/**
 * What a catch-up can re-read is stamped at or after min(watermark, readAt - look-back, fullReadAt - LOOKBACK_MILLIS),
 * never before this: older keys need not be remembered. Remembered keys are not added twice (sealed segments cannot
 * tell an update from a repeat).
 */
const recentFloor = (set: IndexSet) => Math.min(set.watermark, set.readAt, set.fullReadAt) - LOOKBACK_MILLIS

export const makeAnnSets = (options: {
  readonly worker: AnnWorker
  /** Undefined: kept in memory only (an in-memory database). */
  readonly files: AnnFiles | undefined
  readonly rows: VectorRows
  /** Where the vectors added are copied for rescoring (PostgreSQL only, see copies.ts). */
  readonly copies?: VectorCopies | undefined
}) => {
  const { copies, files, rows, worker } = options
  let sets = 0
  const newSetName = () => `${Date.now().toString(36)}-${(sets++).toString(36)}`

  /** Adds unit vectors in batches; seals the delta into a segment file when it is full. */
  const apply = (entry: Entry, set: IndexSet, vectors: ReadonlyArray<Ready>, threads: number): Effect.Effect<void, Failure> =>
    Effect.gen(function*() {
      const { dimensions } = entry
      for (let from = 0; from < vectors.length; from += BATCH) {
        const batch = vectors.slice(from, from + BATCH)
        const keys = new Float64Array(batch.length)
        const data = new Float32Array(batch.length * dimensions)
        batch.forEach((vector, i) => {
          keys[i] = vector.key
          data.set(vector.unit, i * dimensions)
        })
        update(set, yield* worker.add(set.name, keys, data, threads))
        remember(set, batch)
        yield* sealIfFull(entry, set)
      }
    })

  /** Stored vectors read from the database, as the index adds them (those of other dimensions are left out). */
  const readyOf = (entry: Entry, found: ReadonlyArray<VectorRow>): Array<Ready> =>
    found.flatMap((row) => {
      if (row.value.byteLength !== entry.dimensions * 8) return []
      const unit = new Float32Array(entry.dimensions)
      normalise(float64sOf(row.value), unit, 0)
      return [{ key: row.key, at: row.at.getTime(), unit }]
    })

  const update = (set: IndexSet, state: SetState) => {
    set.entries = state.entries
    set.delta = state.delta
    set.staged = state.staged
    set.unsaved = true
  }

  /** Remembers the keys applied within the look-back window, with their times (see `recent`). */
  const remember = (set: IndexSet, added: ReadonlyArray<{ readonly key: number; readonly at: number }>) => {
    const floor = recentFloor(set)
    for (const { at, key } of added) if (at >= floor) set.recent.set(key, at)
  }

  /** Seals the delta into a segment file once it is full (saving the set when it is the one serving). */
  const sealIfFull = (entry: Entry, set: IndexSet): Effect.Effect<void, Failure> =>
    Effect.gen(function*() {
      if (files === undefined || set.delta < SEGMENT_VECTORS) return
      const folder = yield* files.folder(entry.settingsId, set.name)
      const sealed = yield* worker.seal(set.name, `${folder}/segment-${set.sealed.length}.usearch`)
      set.sealed.push(sealed.file)
      set.delta = sealed.delta
      if (set === entry.current) yield* save(entry, set)
    })

  /**
   * A new set holding every vector of the settings, read in pages (the look-back covers writes meanwhile), staged:
   * searchable at once (the staged vectors exactly, see annIndex.worker.ts), and added to the graph by `addStaged`. Reading a
   * million vectors takes seconds; adding them, minutes of both cores. Staging is what lets searches use the set
   * before the adding ends: otherwise each would scan the database exactly, minutes at a million vectors.
   */
  const stage = (entry: Entry): Effect.Effect<IndexSet, Failure> =>
    Effect.gen(function*() {
      const started = yield* Clock.currentTimeMillis
      const set: IndexSet = {
        name: newSetName(),
        watermark: started,
        // The fill reads every vector committed before it started (and those committed while it pages).
        readAt: started,
        fullReadAt: started,
        recent: new Map(),
        prunedFloor: Number.NEGATIVE_INFINITY,
        entries: 0,
        delta: 0,
        staged: 0,
        sealed: [],
        savedAt: 0,
        unsaved: true
      }
      yield* worker.create(set.name, entry.dimensions)
      const staging = files === undefined ? null : `${yield* files.folder(entry.settingsId, set.name)}/staged.f32.tmp`
      const { dimensions } = entry
      // The next page is read while this one is converted and staged: the database and the server overlap.
      const read = (after: string | undefined) => Effect.fork(rows.page(entry.settingsId, after, STAGE_PAGE))
      for (let reading = yield* read(undefined);;) {
        const page = yield* Fiber.join(reading)
        const more = page.length === STAGE_PAGE
        if (more) reading = yield* read(page[page.length - 1]!.id)
        const valid = page.filter((row) => row.value.byteLength === dimensions * 8)
        if (valid.length > 0) {
          const keys = Float64Array.from(valid, (row) => row.key)
          const data = new Float32Array(valid.length * dimensions)
          valid.forEach((row, i) => normalise(float64sOf(row.value), data, i * dimensions))
          update(set, yield* worker.stage(set.name, keys, data, staging))
          copies?.write(entry.settingsId, dimensions, valid)
          remember(set, valid.map((row) => ({ key: row.key, at: row.at.getTime() })))
        }
        if (!more) break
      }
      yield* Effect.logInfo(
        `vector index of settings ${entry.settingsId}: ${set.entries} vectors read in ${(yield* Clock.currentTimeMillis) - started} ms`
      )
      return set
    }).pipe(Effect.withSpan("VectorIndex.stage", { attributes: { settings: entry.settingsId } }))

  /**
   * Adds a staged set's vectors to its graph, a batch at a time. A set that is `serving` stops once it no longer does
   * (replaced, forgotten), and seals its full delta under the index's lock, as catch-ups do. The batches do not take
   * the lock: a loop that takes it again as soon as it lets go never lets a waiter have it (Effect's semaphore hands
   * a freed permit to whoever asks first), and catch-ups and the searches that wait for them starved for minutes.
   */
  const addStaged = (entry: Entry, set: IndexSet, options: { readonly serving: boolean }): Effect.Effect<void, Failure> =>
    Effect.gen(function*() {
      const started = yield* Clock.currentTimeMillis
      const seal = options.serving ? entry.lock.withPermits(1)(sealIfFull(entry, set)) : sealIfFull(entry, set)
      while (set.staged > 0) {
        if (options.serving && entry.current !== set) return
        // Two threads: a build is the one time the index may use the whole machine.
        update(set, yield* worker.addStaged(set.name, BATCH, 2))
        if (set.delta >= SEGMENT_VECTORS) yield* seal
      }
      yield* Effect.logInfo(
        `vector index of settings ${entry.settingsId}: built, ${set.entries} vectors added in ${(yield* Clock.currentTimeMillis) - started} ms`
      )
    }).pipe(Effect.withSpan("VectorIndex.addStaged", { attributes: { settings: entry.settingsId, set: set.name } }))

  /** A new set holding every vector of the settings, staged and added (a rebuild's, while the old one serves). */
  const fill = (entry: Entry): Effect.Effect<IndexSet, Failure> =>
    Effect.tap(stage(entry), (set) => addStaged(entry, set, { serving: false }))

  /** Applies the vectors written since the set's watermark (less the look-back) that it does not hold yet. */
  const catchUp = (entry: Entry, set: IndexSet, lookback = LOOKBACK_MILLIS): Effect.Effect<void, Failure> =>
    Effect.gen(function*() {
      // A vector the last catch-up could not see was committed after it began reading, so it is stamped at most a
      // look-back before that moment; everything stamped earlier and committed before it was read then. Measured
      // from now instead, a catch-up that came more than a look-back after the last one (they run back to back
      // behind a bulk import, and the HNSW adds make each long) read from the watermark only, and a batch stamped
      // just before the watermark but committed just after that read was never added: a large import on PostgreSQL
      // could end a few vectors short, and the recount then rebuilt the whole index. (From `watermark - lookback`,
      // every catch-up after a bulk import re-read its last 30 s of stamps for as long as nothing new was written;
      // from the last read, it stops 30 s after the import.)
      const full = lookback >= LOOKBACK_MILLIS
      const startedAt = yield* Clock.currentTimeMillis
      const since = iso(Math.min(set.watermark, (full ? set.fullReadAt : set.readAt) - lookback))
      for (let after: Stamp | undefined;;) {
        const stamps = yield* rows.changed(entry.settingsId, since, after, STAMPS_PAGE)
        const fresh = stamps.filter((stamp) => set.recent.get(stamp.key) !== stamp.at.getTime())
        // A bulk import's catch-up adds with both threads (adding is slower than importing); a few writes with one.
        const threads = fresh.length >= BATCH ? 2 : 1
        // What this process wrote is at hand; the rest (other processes' writes, or past the bound) is read.
        const ready: Array<Ready> = []
        const unread: Array<number> = []
        for (const stamp of fresh) {
          const at = stamp.at.getTime()
          const unit = entry.handed.take(stamp.id, at)
          if (unit === undefined) unread.push(stamp.key)
          else ready.push({ key: stamp.key, at, unit })
        }
        if (unread.length > 0) {
          const found = yield* rows.byKeys(entry.settingsId, unread)
          copies?.write(entry.settingsId, entry.dimensions, found)
          ready.push(...readyOf(entry, found))
        }
        if (ready.length > 0) yield* apply(entry, set, ready, threads)
        // Stamps come in time order, so the watermark moves on with every page. A catch-up behind a bulk import runs
        // for as long as the import (adding is slower), and the saves after each sealed segment must record how far
        // it got: with the watermark of its start, a restart re-read and re-added every vector since (duplicate
        // entries, and a first search that waited minutes).
        const last = stamps[stamps.length - 1]
        if (last !== undefined && last.at.getTime() > set.watermark) {
          set.watermark = last.at.getTime()
          // A segment sealed (and saved) within this page recorded the watermark before it: save again later.
          set.unsaved = true
        }
        const floor = recentFloor(set)
        if (floor > set.prunedFloor) {
          for (const [key, at] of set.recent) if (at < floor) set.recent.delete(key)
          entry.handed.prune(floor)
          set.prunedFloor = floor
        }
        if (stamps.length < STAMPS_PAGE) break
        after = last
      }
      set.readAt = startedAt
      // A set opened from files has had no full catch-up yet: its first one, from the saved watermark, stands for one.
      if (full || !Number.isFinite(set.fullReadAt)) set.fullReadAt = startedAt
    }).pipe(Effect.withSpan("VectorIndex.catchUp", { attributes: { settings: entry.settingsId, set: set.name, lookback } }))

  const save = (entry: Entry, set: IndexSet): Effect.Effect<void, WorkerCallError> =>
    Effect.gen(function*() {
      // While a rebuild fills its set, the old one is not saved: the description names one set's files only. Nor is
      // a set whose staged vectors are not all added: its files do not hold them, and its watermark says they do.
      if (files === undefined || entry.rebuilding || set.staged > 0) return
      const folder = yield* files.folder(entry.settingsId, set.name)
      const delta = yield* worker.saveDelta(set.name, `${folder}/delta-${yield* Clock.currentTimeMillis}.usearch`)
      yield* files.write(entry.settingsId, {
        version: 1,
        dimensions: entry.dimensions,
        set: set.name,
        watermark: set.watermark,
        sealed: set.sealed,
        delta
      })
      set.savedAt = yield* Clock.currentTimeMillis
      set.unsaved = false
    }).pipe(Effect.withSpan("VectorIndex.save", { attributes: { settings: entry.settingsId, set: set.name } }))

  /** The saved set, when there is one that opens (checksums match); nothing otherwise. */
  const opened = (entry: Entry): Effect.Effect<Option.Option<IndexSet>> =>
    Effect.gen(function*() {
      if (files === undefined) return Option.none<IndexSet>()
      const saved = yield* files.read(entry.settingsId)
      if (Option.isNone(saved) || saved.value.dimensions !== entry.dimensions) return Option.none<IndexSet>()
      const { delta, sealed, set, watermark } = saved.value
      const state = yield* Effect.either(worker.open(set, entry.dimensions, { sealed, delta }))
      if (state._tag === "Left") {
        yield* Effect.logWarning(`vector index of settings ${entry.settingsId}: saved files unreadable (${state.left.message}), rebuilding`)
        return Option.none<IndexSet>()
      }
      return Option.some<IndexSet>({
        name: set,
        watermark,
        readAt: Number.POSITIVE_INFINITY,
        fullReadAt: Number.POSITIVE_INFINITY,
        recent: new Map(),
        prunedFloor: Number.NEGATIVE_INFINITY,
        entries: state.right.entries,
        delta: state.right.delta,
        staged: 0,
        sealed: [...sealed],
        savedAt: yield* Clock.currentTimeMillis,
        unsaved: false
      })
    }).pipe(Effect.withSpan("VectorIndex.open", { attributes: { settings: entry.settingsId } }))

  return { stage, addStaged, fill, catchUp, save, opened } as const
}

/**
 * The built-in engine's approximate nearest-neighbour index, one per vector settings with `GLOSS_VECTOR_ANN_FROM`
 * vectors or more (fewer stay with the exact in-memory scan of matrices.ts). It answers "which keys are near this
 * vector"; rank.ts rescores those candidates exactly from the database, so the index only has to find them.
 *
 * The database is the truth and the index a cache that can always be rebuilt from it:
 * - built on first use (and when writes take the settings past the threshold), from the `vectors` table in pages,
 *   added in a worker thread (annIndex.worker.ts) so the event loop never waits for the graph. A first build serves as soon
 *   as it has read the vectors (staged, they are searched exactly until added), not once it has added them all;
 * - kept up to date by a catch-up that reads the vectors written since its watermark. In-process writes are counted
 *   and schedule a catch-up at once (debounced); a search first waits for a catch-up that began after the writes
 *   it saw (running one itself when none has). Other processes' writes are found by each index's maintenance loop
 *   every few seconds (by a search only when the loop is late), which alone also recounts and saves. The catch-up
 *   looks back a window before its watermark, because another process can commit a vector stamped slightly earlier
 *   than one already seen; vectors already applied (same key, same time) are skipped, so looking back costs a
 *   read of keys, not a re-add;
 * - deletions are not removed from the index (their keys are unknown once deleted): rescoring drops them, and when
 *   the index holds noticeably more entries than the database has vectors it is rebuilt in the background, the old
 *   one serving meanwhile;
 * - saved under GLOSS_HOME_PATH (annFiles) after a build and after catch-ups at most every half minute, so a
 *   restart loads it and catches up instead of rebuilding.
 * Each server process keeps its own index, built from the shared database (a cache per process, like the matrices).
 * This file decides when work runs (locks, schedules, the maintenance loop); annSets.ts does the filling, catching
 * up, saving and opening of a set.
 */
import { logDropped } from "../dropped.js"
import { Clock, Deferred, Effect, FiberSet, Option, type Scope } from "effect"
import type { AnnFiles } from "./annFiles.js"
import { type Entry, type Failure, type IndexSet, LOOKBACK_MILLIS, makeAnnSets, makeEntry, QUICK_LOOKBACK_MILLIS } from "./annSets.js"
import type { AnnWorker } from "./AnnWorker.js"
import type { VectorCopies } from "../copies.js"
import type { VectorRows } from "../rows.js"
import type { WrittenVector } from "../../Query.js"

/** Other processes' writes are looked for this often, by each index's maintenance loop (as the matrices are). */
const RECHECK_MILLIS = 5_000
/**
 * A search looks for them itself only when the maintenance loop is this late. When searches did it at every recheck
 * (they came due before the loop, which sleeps after its own), one search in each 5 s carried a full catch-up with
 * nothing to catch up, and those searches were the tail of vector search on PostgreSQL (`npm run bench -- scale`).
 */
const OVERDUE_MILLIS = 3 * RECHECK_MILLIS
/** How often the count of vectors is compared with the index (a count over a million rows is not free). */
const COUNT_EVERY_MILLIS = 30_000
const SAVE_EVERY_MILLIS = 30_000
/** The index is rebuilt once it holds this fraction more entries than the database has vectors (deletions). */
const STALE_FRACTION = 0.2
const DEBOUNCE = "500 millis"

export const makeAnnIndex = (options: {
  readonly rows: VectorRows
  readonly worker: AnnWorker
  /** Undefined: kept in memory only (an in-memory database). */
  readonly files: AnnFiles | undefined
  /** Copies of the vectors added, for rescoring (PostgreSQL only, see copies.ts). */
  readonly copies?: VectorCopies | undefined
  /** From how many vectors of these dimensions settings have an index (annThreshold.ts). */
  readonly annFrom: (dimensions: number) => number
}): Effect.Effect<AnnIndex, never, Scope.Scope> =>
  Effect.gen(function*() {
    const { copies, files, rows, worker } = options
    const entries = new Map<string, Entry>()
    /**
     * Settings without an index: at most how many vectors they have, as last counted plus what this process wrote
     * since. A write counts again only once that could reach the threshold: a count after every batch of an import
     * read every vector of the settings each time (`select count(*)` per bulk request, growing with the import).
     */
    const atMost = new Map<string, number>()
    // Background work runs in fibers of the index's own runtime, interrupted when its scope closes. Forked from the
    // request that wrote, a fiber would keep that request (and its parsed body) alive for as long as it ran.
    const inBackground = yield* FiberSet.runtime(yield* FiberSet.make())<never>()
    const { addStaged, catchUp, fill, opened, save, stage } = makeAnnSets({ worker, files, rows, copies })

    // ---- keeping it current -------------------------------------------------------------------------------------

    /** Builds a new set in the background while the current one serves, then swaps them. */
    const rebuild = (entry: Entry): Effect.Effect<void, Failure> =>
      entry.rebuilding ? Effect.void : Effect.gen(function*() {
        entry.rebuilding = true
        const next = yield* fill(entry)
        yield* entry.lock.withPermits(1)(Effect.gen(function*() {
          yield* catchUp(entry, next)
          const old = entry.current
          entry.current = next
          entry.rebuilding = false
          if (old !== undefined) yield* worker.close(old.name)
          yield* save(entry, next)
        }))
      }).pipe(Effect.ensuring(Effect.sync(() => (entry.rebuilding = false))))

    /** Compares the database's count with the index: deletions elsewhere, or vectors the catch-up missed. */
    const recount = (entry: Entry, set: IndexSet): Effect.Effect<void, Failure> =>
      Effect.gen(function*() {
        // What the index held before the count (which runs outside the lock, while catch-ups may add): every one of
        // these entries was committed before the count began, so only deletions can make them outnumber it.
        const { entries, watermark } = set
        const count = yield* rows.count(entry.settingsId)
        const missing = count > entries
        const stale = entries > count * (1 + STALE_FRACTION) + 10
        // Missing twice at the same watermark: not a write in flight between the catch-up and the count.
        const rebuildNow = stale || (missing && entry.missingAt === watermark)
        entry.missingAt = missing ? watermark : undefined
        if (rebuildNow) {
          yield* Effect.logInfo(`vector index of settings ${entry.settingsId}: ${set.entries} entries for ${count} vectors, rebuilding`)
          inBackground(background(rebuild(entry)))
        }
      }).pipe(Effect.withSpan("VectorIndex.recount", { attributes: { settings: entry.settingsId } }))

    /**
     * Every RECHECK_MILLIS while the entry is in use: other processes' writes, the recount, the save. Ends when the
     * entry is forgotten or replaced.
     */
    const maintain = (entry: Entry): Effect.Effect<void, Failure> =>
      Effect.zipRight(Effect.sleep(RECHECK_MILLIS), sync(entry, { force: true, upkeep: true })).pipe(
        Effect.repeat({ while: () => entries.get(entry.settingsId) === entry })
      )

    /**
     * Catches the index up (when written to, or when the recheck is due: other processes' writes and late commits,
     * 30 s back). `upkeep` also recounts and saves now and then; searches leave that to the maintenance loop, since a
     * search that came due for it waited for a count of every vector, which at a million records set the tail of
     * vector search. They leave it the recheck too, unless it is overdue: a search catches up itself only with
     * this process's writes (`writes`, read-your-writes). A search with nothing to catch up does not take the lock at
     * all, and the count runs outside it: a search never waits behind the maintenance loop's count.
     */
    const sync = (entry: Entry, options: { readonly force: boolean; readonly upkeep: boolean }): Effect.Effect<void, Failure> =>
      Effect.gen(function*() {
        const recheckAfter = options.upkeep ? RECHECK_MILLIS : OVERDUE_MILLIS
        // The writes this call must see applied. Checked before the lock (a search with nothing to do never waits)
        // and again under it: a catch-up that held the lock meanwhile may have applied them. (A flag cleared when a
        // catch-up began let a search that came during that catch-up answer from the index before it: in CI, from
        // the first 500 of 3 600 vectors just imported.)
        const seen = entry.writes
        const due = (now: number) => options.force || entry.applied < seen || now - entry.checkedAt >= recheckAfter
        if (!due(yield* Clock.currentTimeMillis)) return
        const now = yield* entry.lock.withPermits(1)(Effect.gen(function*() {
          const set = entry.current
          const now = yield* Clock.currentTimeMillis
          if (set === undefined || !due(now)) return undefined
          const full = now - entry.checkedAt >= recheckAfter
          const writes = entry.writes
          if (full) entry.checkedAt = now
          yield* catchUp(entry, set, full ? LOOKBACK_MILLIS : QUICK_LOOKBACK_MILLIS)
          entry.applied = writes
          return now
        }))
        const set = entry.current
        if (!options.upkeep || now === undefined || set === undefined) return
        if (now - entry.countedAt >= COUNT_EVERY_MILLIS) {
          entry.countedAt = now
          yield* recount(entry, set)
        }
        // The save holds the lock: the watermark it writes must be the one of the vectors it holds.
        if (set.unsaved && now - set.savedAt >= SAVE_EVERY_MILLIS) {
          yield* entry.lock.withPermits(1)(entry.current === set ? save(entry, set) : Effect.void)
        }
      })

    /** Background work: its failure is logged, and the entry is dropped so that the next use starts over. */
    const background = (work: Effect.Effect<void, unknown>, entry?: Entry): Effect.Effect<void> =>
      work.pipe(
        Effect.catchAllCause((cause) =>
          Effect.zipRight(
            Effect.logWarning("vector index: background work failed", cause),
            entry === undefined ? Effect.void : forget([entry.settingsId])
          )
        )
      )

    /**
     * A catch-up soon after writes: one loop per entry, debounced, that goes again while writes keep coming. At
     * most one runs per entry, so a catch-up slower than the writes (HNSW adds are slower than a bulk import on two
     * cores) never leaves a line of fibers waiting for the lock behind it.
     */
    const schedule = (entry: Entry): Effect.Effect<void> =>
      Effect.sync(() => {
        entry.writes++
        if (entry.scheduled) return
        entry.scheduled = true
        const drain: Effect.Effect<void, Failure> = Effect.suspend(() => {
          // Checked and ended in one step with the write's count: no write is missed in between.
          if (entry.applied >= entry.writes) {
            entry.scheduled = false
            return Effect.void
          }
          return Effect.zipRight(Effect.zipRight(Effect.sleep(DEBOUNCE), sync(entry, { force: false, upkeep: true })), drain)
        })
        inBackground(background(drain.pipe(Effect.ensuring(Effect.sync(() => (entry.scheduled = false)))), entry))
      })

    /** The entry of these settings, made (and its index opened or built in the background) on first use. */
    const ensure = (settingsId: string, dimensions: number, count: number): Effect.Effect<Entry> =>
      Effect.gen(function*() {
        const known = entries.get(settingsId)
        if (known !== undefined) return known
        const entry = yield* makeEntry(settingsId, dimensions, count)
        entries.set(settingsId, entry)
        /** Serves this set; false (the set closed) when the entry was forgotten meanwhile. */
        const serve = (set: IndexSet) =>
          Effect.gen(function*() {
            if (entries.get(settingsId) !== entry) {
              return yield* Effect.as(logDropped(`Closing the vector index set ${set.name}`)(worker.close(set.name)), false)
            }
            entry.current = set
            yield* Deferred.succeed(entry.ready, true)
            return true
          })
        const start = Effect.gen(function*() {
          const loaded = yield* opened(entry)
          if (Option.isSome(loaded)) {
            // A loaded index catches up from its saved watermark before it answers, without the look-back the first
            // time: it does not know which of the keys stamped just before the watermark it holds (sealed segments
            // cannot tell an update from a repeat), and re-adding them all would duplicate up to 30 s of writes. A
            // late commit stamped before the watermark is found by the recount below (missing twice: a rebuild).
            yield* entry.lock.withPermits(1)(catchUp(entry, loaded.value, 0))
            if (!(yield* serve(loaded.value))) return
            yield* sync(entry, { force: true, upkeep: true })
            // Deletions while no process held the index: compare the counts at once.
            return yield* recount(entry, loaded.value)
          }
          // A first build serves once its vectors are read and staged (searched exactly until they are added), and
          // catches up with what was written meanwhile before it adds them.
          const set = yield* stage(entry)
          if (!(yield* serve(set))) return
          yield* sync(entry, { force: true, upkeep: true })
          yield* addStaged(entry, set, { serving: true })
          yield* entry.lock.withPermits(1)(entry.current === set ? save(entry, set) : Effect.void)
        })
        inBackground(background(start, entry).pipe(Effect.ensuring(Deferred.succeed(entry.ready, true))))
        inBackground(background(maintain(entry), entry))
        return entry
      })

    /** Drops these settings' indexes (and their files when `removeFiles`). */
    const forget = (settingsIds: Iterable<string>, removeFiles = false): Effect.Effect<void> =>
      Effect.forEach(settingsIds, (settingsId) =>
        Effect.gen(function*() {
          const entry = entries.get(settingsId)
          entries.delete(settingsId)
          atMost.delete(settingsId)
          const set = entry?.current
          if (entry !== undefined && set !== undefined) {
            // Nothing of the entry's may use its set once closed (a first build still adding its staged vectors).
            entry.current = undefined
            yield* logDropped(`Closing the vector index set ${set.name}`)(worker.close(set.name))
          }
          // Whether or not this process used them: a deleted dataset's files (and its copies, gigabytes at a million
          // vectors) must not stay behind because another process served its searches.
          if (!removeFiles) return
          if (files !== undefined) yield* files.remove(settingsId)
          copies?.remove(settingsId)
        }), { discard: true })

    return {
      has: (settingsId) => entries.has(settingsId),

      size: (settingsId) => {
        const entry = entries.get(settingsId)
        return entry?.current?.entries ?? entry?.initialCount ?? 0
      },

      candidates: (settingsId, dimensions, count, query, n) =>
        Effect.gen(function*() {
          const entry = yield* ensure(settingsId, dimensions, count)
          // Saved files open in moments (sealed segments are memory-mapped) and catch up with what was written since
          // they were saved; a first build serves once it has read every vector (seconds at a million), long before
          // it has added them (minutes). Either is far sooner than a search that scans every vector of the database
          // exactly, which at a million vectors takes minutes.
          if (entry.current === undefined) yield* Deferred.await(entry.ready).pipe(Effect.withSpan("VectorIndex.awaitFirstSet"))
          // This process's writes a search must see (read-your-writes): a catch-up, or the wait for one under way.
          yield* sync(entry, { force: false, upkeep: false }).pipe(Effect.withSpan("VectorIndex.catchUpFirst"))
          const set = entry.current
          if (set === undefined) return Option.none()
          return Option.some({ keys: yield* worker.search(set.name, query, n), entries: set.entries })
        }).pipe(
          Effect.withSpan("VectorIndex.candidates", { attributes: { settings: settingsId, n } }),
          Effect.catchTags({ SqlError: Effect.die, ParseError: Effect.die }),
          Effect.catchTag("WorkerCallError", (error) =>
            Effect.as(
              Effect.zipRight(Effect.logWarning(`vector index: ${error.message}; answering exactly`), forget([settingsId])),
              Option.none()
            ))
        ),

      written: (settings, vectors = []) =>
        Effect.forEach(settings, ({ dimensions, id }) =>
          Effect.gen(function*() {
            const entry = entries.get(id)
            if (entry !== undefined) {
              entry.handed.keep(vectors.filter((vector) => vector.settingsId === id))
              return yield* schedule(entry)
            }
            // Writes that take the settings past the threshold start the index now, not at the next search.
            const threshold = options.annFrom(dimensions)
            const written = vectors.reduce((n, vector) => n + (vector.settingsId === id ? 1 : 0), 0)
            const known = atMost.get(id)
            if (known !== undefined && written > 0 && known + written < threshold) {
              atMost.set(id, known + written)
              return
            }
            const count = yield* Effect.orDie(rows.count(id))
            atMost.set(id, count)
            if (count >= threshold) yield* ensure(id, dimensions, count)
          }), { discard: true }),

      deleted: Effect.sync(() => {
        for (const entry of entries.values()) {
          entry.writes++
          entry.countedAt = 0
        }
      }),

      prune: Effect.gen(function*() {
        for (const settingsId of [...entries.keys()]) {
          if (!(yield* Effect.orDie(rows.exists(settingsId)))) yield* forget([settingsId], true)
        }
      }),

      forget: (settingsIds) => forget(settingsIds, true),

      saveAll: Effect.forEach([...entries.values()], (entry) =>
        entry.current === undefined || !entry.current.unsaved
          ? Effect.void
          : logDropped(`Saving the vector index of settings ${entry.settingsId}`)(entry.lock.withPermits(1)(save(entry, entry.current))), { discard: true })
    } satisfies AnnIndex
  })

export interface AnnIndex {
  /** Whether these settings are served by an ANN index in this process. */
  readonly has: (settingsId: string) => boolean
  /** How many entries its index holds (while it is first built: how many vectors there were). */
  readonly size: (settingsId: string) => number
  /**
   * The keys of about the `n` vectors nearest to `query` (a unit vector), nearest first, once the index has caught
   * up with what was committed before; none while it is being built (the caller answers exactly) or when it failed.
   * `count` is the settings' number of vectors when it was last counted.
   */
  readonly candidates: (
    settingsId: string,
    dimensions: number,
    count: number,
    query: Float32Array,
    n: number
  ) => Effect.Effect<Option.Option<{ readonly keys: Float64Array; readonly entries: number }>>
  /**
   * Vectors of these settings were written in this process: catch up soon (and start an index past the threshold).
   * `vectors`, those it stored, are added from here rather than read back (see handed.ts).
   */
  readonly written: (
    settings: Iterable<{ readonly id: string; readonly dimensions: number }>,
    vectors?: ReadonlyArray<WrittenVector>
  ) => Effect.Effect<void>
  /** Records were deleted in this process: recount at the next catch-up (the deleted keys are unknown). */
  readonly deleted: Effect.Effect<void>
  /** Drops the indexes (and files) of vector settings that no longer exist. */
  readonly prune: Effect.Effect<void>
  /** Drops these settings' indexes and files (a reindex builds them again). */
  readonly forget: (settingsIds: Iterable<string>) => Effect.Effect<void>
  /** Saves what is not saved yet (at shutdown). */
  readonly saveAll: Effect.Effect<void>
}

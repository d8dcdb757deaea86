/**
 * Copies of the stored vectors beside the ANN index, so that a vector search on PostgreSQL rescores its hundred
 * candidates without reading their values from the database. That read was a large share of a vector search at a
 * million records (the values are stored out of line and sent as hex, all parsed on the main thread), and so was the
 * garbage it left (`npm run bench -- scale`). SQLite needs none of this: its search worker scores the
 * candidates in SQL (`gloss_cosine`, see SqliteReader), so only the scores cross.
 *
 * One file per vector settings, `<home>/vectors/<settings id>.copies`, a slot per key (a record's insertion order,
 * which no write changes) at a fixed stride: a header — the vector's `updated_at` (epoch milliseconds), its row
 * version (PostgreSQL's `xmin`, which every update of the row changes) and a checksum of the slot — then the value as
 * stored (float64s), so that a score from a copy is the exact search's to the bit. The file is sparse: keys are
 * counted over every dataset, so a dataset imported after others starts far into its file, and the slots before
 * its first key are a hole that takes no disk (`ls` shows the file larger than `du` does). Any key can be copied
 * at any time, in any order: a search that finds no copy writes one wherever its key falls.
 *
 * The database stays the truth. A search reads its candidates' stamps (key, record id, time, row version: no values)
 * and uses a copy only when the time and version match and the checksum holds; any other candidate's value is read
 * from the database, as before, and written here. So a copy that is stale, torn by a crash, missing, or from another
 * database costs a read, never a wrong score, and a deleted record or vector is never returned: the stamps' read
 * leaves it out. Copies are written as vectors are added to the index (a first build, catch-ups) and as searches
 * read values they lacked. The file is read and written with positioned I/O, not mapped: its pages are the
 * operating system's file cache, which the kernel can drop, not the server's memory (~3.1 KB of disk a vector at 384
 * dimensions). Failing to write a copy is not a search failure: the next search reads that value again.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { Cause, Effect, Runtime, type Scope } from "effect"

/** A failure of the same kind is logged once a minute at most: a full disk would fail every write of a search. */
const WARN_EVERY_MILLIS = 60_000

/** The file's own header: a magic, its format and the dimensions. */
const FILE_HEADER = 64
const MAGIC = 0x474c5643 // "GLVC"
const FORMAT = 1
/** A slot's header: time (float64), row version (float64), checksum (uint32), written (uint32 = 1). */
const SLOT_HEADER = 24
/**
 * Consecutive keys are written with one system call, up to this many bytes of slots (256 at 384 dimensions): a first
 * build pages through the vectors in record id order, which is nearly insertion order, and writes them all before it
 * serves. The buffer stays allocated, so it is bounded in bytes whatever the dimensions.
 */
const RUN_BYTES = 800 * 1024

/** When a stored vector was written, and which version of its row it is: what a copy must match to be used. */
export interface CopyStamp {
  readonly key: number
  /** `updated_at`. */
  readonly at: Date
  readonly version: number
}

/** A vector as stored, with its stamp. */
export interface CopyRow extends CopyStamp {
  readonly value: Uint8Array
}

export interface VectorCopies {
  /** Writes copies of these vectors (those of other dimensions are left out). */
  readonly write: (settingsId: string, dimensions: number, rows: ReadonlyArray<CopyRow>) => void
  /**
   * The copy of a vector with this stamp, or undefined when there is none that matches. The bytes are a buffer the
   * next call reuses: score them before asking for another.
   */
  readonly read: (settingsId: string, dimensions: number, stamp: CopyStamp) => Uint8Array | undefined
  /** Removes the settings' copies (their vectors are gone, or are rebuilt from the database). */
  readonly remove: (settingsId: string) => void
}

/**
 * A slot's checksum (its own word zeroed): FNV-1a's step in eight interleaved lanes, since one lane's chain of
 * multiplications held the main thread for seconds at a million slots, and a first build writes them all.
 * Enough to tell a torn or foreign slot from a whole one.
 */
const checksum = (w: Uint32Array, from: number, to: number) => {
  const P = 0x01000193
  let a = 0x811c9dc5, b = 0x9e3779b9, c = 0x85ebca6b, d = 0xc2b2ae35, e = 1, f = 2, g = 3, h = 4
  let i = from
  for (; i + 7 < to; i += 8) {
    a = Math.imul(a ^ w[i]!, P)
    b = Math.imul(b ^ w[i + 1]!, P)
    c = Math.imul(c ^ w[i + 2]!, P)
    d = Math.imul(d ^ w[i + 3]!, P)
    e = Math.imul(e ^ w[i + 4]!, P)
    f = Math.imul(f ^ w[i + 5]!, P)
    g = Math.imul(g ^ w[i + 6]!, P)
    h = Math.imul(h ^ w[i + 7]!, P)
  }
  for (; i < to; i++) a = Math.imul(a ^ w[i]!, P)
  const lanes = a ^ Math.imul(b, 3) ^ Math.imul(c, 5) ^ Math.imul(d, 7) ^ Math.imul(e, 11) ^ Math.imul(f, 13)
  return (lanes ^ Math.imul(g, 17) ^ Math.imul(h, 19)) >>> 0
}

/** One settings' file, open. */
interface CopyFile {
  readonly fd: number
  readonly dimensions: number
}

/** The copies under `<home>/vectors`; the open files are closed with the scope. */
export const makeVectorCopies = (home: string): Effect.Effect<VectorCopies, never, Scope.Scope> =>
  Effect.gen(function*() {
    const root = path.join(home, "vectors")
    const open = new Map<string, CopyFile>()
    // The copies are read and written synchronously, inside a search's scoring: their failures are logged from here.
    const runFork = Runtime.runFork(yield* Effect.runtime<never>())
    const warnedAt = new Map<string, number>()
    /** Carries on past a failure of a cache (the database still has every value), and says so in the log. */
    const warn = (what: string, error: unknown) => {
      const now = Date.now()
      if (now - (warnedAt.get(what) ?? -Infinity) < WARN_EVERY_MILLIS) return
      warnedAt.set(what, now)
      runFork(Effect.logWarning(`Vector copies: ${what} failed; carrying on (the values are read from the database)`, Cause.fail(error)))
    }
    /**
     * Settings (with the dimensions asked for) found without a usable file when asked to read: not looked for again
     * until this process writes one, since a search asks for a hundred keys and each look is a failed open.
     */
    const absent = new Map<string, number>()
    /** A run's bytes (`slots` slots), reused by every read and write (of the dimensions last used). */
    let scratch: {
      readonly dimensions: number
      readonly stride: number
      readonly slots: number
      readonly bytes: Uint8Array
      readonly view: DataView
      readonly words: Uint32Array
    } | undefined
    const scratchOf = (dimensions: number) => {
      if (scratch?.dimensions !== dimensions) {
        const stride = SLOT_HEADER + dimensions * 8
        const slots = Math.max(1, Math.floor(RUN_BYTES / stride))
        const buffer = new ArrayBuffer(stride * slots)
        scratch = { dimensions, stride, slots, bytes: new Uint8Array(buffer), view: new DataView(buffer), words: new Uint32Array(buffer) }
      }
      return scratch
    }
    /** The checksum of the i-th slot of the scratch, whose checksum word it zeroes first. */
    const checksumOf = (at: NonNullable<typeof scratch>, i: number) => {
      const from = (i * at.stride) / 4
      at.words[from + 4] = 0
      return checksum(at.words, from, from + at.stride / 4)
    }
    const fileOf = (settingsId: string) => path.join(root, `${settingsId}.copies`)
    const close = (settingsId: string) => {
      const file = open.get(settingsId)
      open.delete(settingsId)
      if (file !== undefined) fs.closeSync(file.fd)
    }

    /** The settings' file when it exists with these dimensions; made (or started over) when `create` says so. */
    const fileFor = (settingsId: string, dimensions: number, create = false): CopyFile | undefined => {
      const known = open.get(settingsId)
      if (known !== undefined && known.dimensions === dimensions) return known
      if (known !== undefined) close(settingsId)
      if (!create && absent.get(settingsId) === dimensions) return undefined
      absent.delete(settingsId)
      const header = Buffer.alloc(FILE_HEADER)
      let fd: number
      try {
        fd = fs.openSync(fileOf(settingsId), "r+")
      } catch {
        if (!create) {
          absent.set(settingsId, dimensions)
          return undefined
        }
        fs.mkdirSync(root, { recursive: true })
        fd = fs.openSync(fileOf(settingsId), "w+")
      }
      const read = fs.readSync(fd, header, 0, FILE_HEADER, 0)
      if (read === FILE_HEADER && header.readUInt32LE(0) === MAGIC && header.readUInt32LE(4) === FORMAT &&
        header.readUInt32LE(8) === dimensions) {
        const file = { fd, dimensions }
        open.set(settingsId, file)
        return file
      }
      // Another format or dimensions (the settings' vectors were remade): start over, when there is something to write.
      if (!create) {
        fs.closeSync(fd)
        absent.set(settingsId, dimensions)
        return undefined
      }
      const file = { fd, dimensions }
      fs.ftruncateSync(fd, 0)
      header.writeUInt32LE(MAGIC, 0)
      header.writeUInt32LE(FORMAT, 4)
      header.writeUInt32LE(dimensions, 8)
      fs.writeSync(fd, header, 0, FILE_HEADER, 0)
      open.set(settingsId, file)
      return file
    }
    const offsetOf = (file: CopyFile, key: number) => FILE_HEADER + key * (SLOT_HEADER + file.dimensions * 8)

    yield* Effect.addFinalizer(() => Effect.sync(() => [...open.keys()].forEach(close)))

    return {
      write: (settingsId, dimensions, rows) => {
        const valid = rows.filter((row) => row.value.byteLength === dimensions * 8)
        if (valid.length === 0) return
        try {
          const file = fileFor(settingsId, dimensions, true)
          if (file === undefined) return
          const at = scratchOf(dimensions)
          // In key order (stable: of a key written twice, the later row is written last), in runs of consecutive keys.
          const sorted = valid.slice().sort((a, b) => a.key - b.key)
          for (let start = 0, end = 1; start < sorted.length; start = end, end = start + 1) {
            while (end < sorted.length && end - start < at.slots && sorted[end]!.key === sorted[end - 1]!.key + 1) end++
            for (let i = start; i < end; i++) {
              const row = sorted[i]!
              const offset = (i - start) * at.stride
              at.view.setFloat64(offset, row.at.getTime(), true)
              at.view.setFloat64(offset + 8, row.version, true)
              at.view.setUint32(offset + 20, 1, true)
              at.bytes.set(row.value, offset + SLOT_HEADER)
              at.view.setUint32(offset + 16, checksumOf(at, i - start), true)
            }
            fs.writeSync(file.fd, at.bytes, 0, (end - start) * at.stride, offsetOf(file, sorted[start]!.key))
          }
        } catch (error) {
          // A cache: a copy not written is read from the database next time.
          warn("writing a copy", error)
        }
      },

      read: (settingsId, dimensions, stamp) => {
        try {
          const file = fileFor(settingsId, dimensions)
          if (file === undefined) return undefined
          const at = scratchOf(dimensions)
          const { stride, view } = at
          if (fs.readSync(file.fd, at.bytes, 0, stride, offsetOf(file, stamp.key)) !== stride) return undefined
          const stored = view.getUint32(16, true)
          const whole = view.getUint32(20, true) === 1 && stored === checksumOf(at, 0)
          return whole && view.getFloat64(0, true) === stamp.at.getTime() && view.getFloat64(8, true) === stamp.version
            ? at.bytes.subarray(SLOT_HEADER, stride)
            : undefined
        } catch (error) {
          warn("reading a copy", error)
          return undefined
        }
      },

      remove: (settingsId) => {
        try {
          close(settingsId)
          fs.rmSync(fileOf(settingsId), { force: true })
        } catch (error) {
          // Left behind: a later file of the same name starts over when its header does not match.
          warn("removing a settings' copies", error)
        }
      }
    }
  })

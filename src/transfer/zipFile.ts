/**
 * A zip archive of files on disk, written a piece at a time (each file deflated as a stream, so none is held in
 * memory): what the Argilla disk export downloads, the SDK's `to_disk` folder in one file. Plain zip, no Zip64, so
 * each file and the archive stay under 4 GiB; UTF-8 names.
 */
import { createReadStream } from "node:fs"
import { open } from "node:fs/promises"
import { pipeline } from "node:stream/promises"
import { crc32, createDeflateRaw } from "node:zlib"
import { Effect } from "effect"
import { TransferFileError } from "./errors.js"

export interface ZipEntry {
  /** The path inside the archive, with `/` between folders. */
  readonly name: string
  /** The file to put there. */
  readonly path: string
}

const LIMIT = 0xffff_ffff
const UTF8_NAMES = 0x0800
const DEFLATE = 8
const VERSION = 20

/** MS-DOS time and date, as zip stores a file's modification time. */
const dosTime = (date: Date) => ({
  time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
  date: ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate()
})

interface Written {
  readonly name: Buffer
  readonly offset: number
  readonly crc: number
  readonly compressed: number
  readonly size: number
}

const localHeader = (entry: Written, stamp: { time: number; date: number }) => {
  const header = Buffer.alloc(30)
  header.writeUInt32LE(0x04034b50, 0)
  header.writeUInt16LE(VERSION, 4)
  header.writeUInt16LE(UTF8_NAMES, 6)
  header.writeUInt16LE(DEFLATE, 8)
  header.writeUInt16LE(stamp.time, 10)
  header.writeUInt16LE(stamp.date, 12)
  header.writeUInt32LE(entry.crc, 14)
  header.writeUInt32LE(entry.compressed, 18)
  header.writeUInt32LE(entry.size, 22)
  header.writeUInt16LE(entry.name.length, 26)
  header.writeUInt16LE(0, 28)
  return Buffer.concat([header, entry.name])
}

const centralHeader = (entry: Written, stamp: { time: number; date: number }) => {
  const header = Buffer.alloc(46)
  header.writeUInt32LE(0x02014b50, 0)
  header.writeUInt16LE(VERSION, 4)
  header.writeUInt16LE(VERSION, 6)
  header.writeUInt16LE(UTF8_NAMES, 8)
  header.writeUInt16LE(DEFLATE, 10)
  header.writeUInt16LE(stamp.time, 12)
  header.writeUInt16LE(stamp.date, 14)
  header.writeUInt32LE(entry.crc, 16)
  header.writeUInt32LE(entry.compressed, 20)
  header.writeUInt32LE(entry.size, 24)
  header.writeUInt16LE(entry.name.length, 28)
  // Extra field, comment, disk number, internal and external attributes: none.
  header.writeUInt32LE(entry.offset, 42)
  return Buffer.concat([header, entry.name])
}

const endOfDirectory = (count: number, size: number, offset: number) => {
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(count, 8)
  end.writeUInt16LE(count, 10)
  end.writeUInt32LE(size, 12)
  end.writeUInt32LE(offset, 16)
  return end
}

const tooLarge = (what: string) => new Error(`${what} is over 4 GiB, more than a plain zip holds`)

/** Writes `entries` into a new zip file at `path`. */
export const writeZip = (path: string, entries: ReadonlyArray<ZipEntry>, modified: Date) =>
  Effect.tryPromise({
    try: async () => {
      const stamp = dosTime(modified)
      const out = await open(path, "w")
      try {
        let offset = 0
        const written: Array<Written> = []
        for (const entry of entries) {
          const name = Buffer.from(entry.name, "utf8")
          const start = offset
          // The header is written again once the sizes and checksum are known.
          const placeholder = localHeader({ name, offset: start, crc: 0, compressed: 0, size: 0 }, stamp)
          await out.write(placeholder, 0, placeholder.length, offset)
          offset += placeholder.length
          let crc = 0
          let size = 0
          let compressed = 0
          await pipeline(
            createReadStream(entry.path),
            async function*(source: AsyncIterable<Buffer>) {
              for await (const chunk of source) {
                crc = crc32(chunk, crc)
                size += chunk.length
                yield chunk
              }
            },
            createDeflateRaw(),
            async (source: AsyncIterable<Buffer>) => {
              for await (const chunk of source) {
                await out.write(chunk, 0, chunk.length, offset)
                offset += chunk.length
                compressed += chunk.length
              }
            }
          )
          if (size >= LIMIT || offset >= LIMIT) throw tooLarge(entry.name)
          const done = { name, offset: start, crc, compressed, size }
          const header = localHeader(done, stamp)
          await out.write(header, 0, header.length, start)
          written.push(done)
        }
        const directory = Buffer.concat(written.map((entry) => centralHeader(entry, stamp)))
        if (offset + directory.length >= LIMIT) throw tooLarge("the archive")
        const end = endOfDirectory(written.length, directory.length, offset)
        const tail = Buffer.concat([directory, end])
        await out.write(tail, 0, tail.length, offset)
      } finally {
        await out.close()
      }
    },
    catch: (cause) => new TransferFileError({ path, detail: `zip: ${cause instanceof Error ? cause.message : String(cause)}` })
  })

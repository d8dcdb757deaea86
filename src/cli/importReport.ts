/**
 * What `gloss records import` tells the person running it: progress after each batch (a bar redrawn in place on a
 * terminal, a plain line per batch anywhere else: a log file has no use for carriage returns), and, when a line is
 * bad, exactly which lines were imported before it.
 */

/** The lines of the file whose records are stored, from the first record's first line to the last one's last. */
export interface LineSpan {
  readonly first: number
  readonly last: number
}

export const linesWord = (first: number, last: number) => (first === last ? `line ${first}` : `lines ${first}–${last}`)

/**
 * "lines 2–501 were imported; line 731: <reason>; nothing after line 501 was imported". Batches are all or nothing
 * and stop at the first bad one, so what is stored is always one span from the top of the file.
 */
export const importFailure = (imported: LineSpan | undefined, problem: string) =>
  imported === undefined
    ? `${problem}; nothing was imported`
    : `${linesWord(imported.first, imported.last)} ${imported.first === imported.last ? "was" : "were"} imported; ` +
      `${problem}; nothing after line ${imported.last} was imported`

const bar = (done: number, total: number) => {
  const width = 30
  const filled = Math.min(width, Math.round((done / Math.max(total, 1)) * width))
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total} records`
}

export interface ProgressOutput {
  readonly isTTY?: boolean | undefined
  readonly write: (text: string) => unknown
}

/**
 * Progress on `out` (stderr). `total` is an estimate made from the file's lines, so the count shown never passes it,
 * and the end shows the exact count when the estimate was off.
 */
export const importProgress = (out: ProgressOutput, estimate: number) => {
  const redraw = out.isTTY === true
  let shown: string | undefined
  const show = (done: number, total: number) => {
    shown = `${done}/${total}`
    out.write(redraw ? `\r${bar(done, total)}` : `${done}/${total} records imported\n`)
  }
  return {
    batch: (done: number) => show(done, Math.max(estimate, done)),
    done: (done: number) => {
      if (shown !== `${done}/${done}`) show(done, done)
      if (redraw) out.write("\n")
    },
    /** Before a failure's message: the bar's line is ended, so the message starts on a line of its own. */
    failed: () => {
      if (redraw && shown !== undefined) out.write("\n")
    }
  }
}

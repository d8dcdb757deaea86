/**
 * A streaming CSV parser (RFC 4180 and the usual variants): text is pushed in chunks of any size, complete rows come
 * out. Quoted fields may hold commas, line breaks and doubled quotes (`""`); rows end at LF, CRLF or CR; a leading
 * byte-order mark is dropped; blank lines are skipped. A quote in the middle of an unquoted field is kept as text.
 * The parser holds only the row being read, so a file of any size is parsed in constant memory.
 */
export class CsvParser {
  private field = ""
  private row: Array<string> = []
  private quoted = false
  /** A quote was seen inside a quoted field: the next character says whether it closed the field or was doubled. */
  private quoteSeen = false
  /** The field began with a quote (so it is not blank even if empty). */
  private fieldStarted = false
  private afterCR = false
  private started = false

  constructor(private readonly delimiter = ",") {}

  /** Feeds a chunk; returns the rows it completed. */
  push(chunk: string): Array<Array<string>> {
    const rows: Array<Array<string>> = []
    let text = chunk
    if (!this.started && text.length > 0) {
      this.started = true
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
    }
    for (let i = 0; i < text.length; i++) {
      const c = text[i] ?? ""
      if (this.afterCR) {
        this.afterCR = false
        if (c === "\n") continue
      }
      if (this.quoted) {
        if (this.quoteSeen) {
          this.quoteSeen = false
          if (c === "\"") {
            this.field += "\""
            continue
          }
          this.quoted = false
          // fall through: c is handled as outside quotes
        } else if (c === "\"") {
          this.quoteSeen = true
          continue
        } else {
          this.field += c
          continue
        }
      }
      if (c === this.delimiter) {
        this.endField()
      } else if (c === "\n" || c === "\r") {
        this.afterCR = c === "\r"
        this.endRow(rows)
      } else if (c === "\"" && this.field === "" && !this.fieldStarted) {
        this.quoted = true
        this.fieldStarted = true
      } else {
        this.field += c
      }
    }
    return rows
  }

  /** The end of the input: the last row, when the text does not end with a line break. */
  end(): Array<Array<string>> {
    const rows: Array<Array<string>> = []
    if (this.quoteSeen) {
      this.quoteSeen = false
      this.quoted = false
    }
    if (this.quoted) throw new Error("the file ends inside a quoted field (a closing \" is missing)")
    this.endRow(rows)
    return rows
  }

  private endField() {
    this.row.push(this.field)
    this.field = ""
    this.fieldStarted = false
  }

  private endRow(rows: Array<Array<string>>) {
    const blank = this.row.length === 0 && this.field === "" && !this.fieldStarted
    this.endField()
    if (!blank) rows.push(this.row)
    this.row = []
  }
}

/** Parses a whole string (for tests and small inputs). */
export const parseCsv = (text: string): Array<Array<string>> => {
  const parser = new CsvParser()
  return [...parser.push(text), ...parser.end()]
}

/** Splits pushed text into lines (LF or CRLF), for JSON Lines; blank lines are skipped. */
export class LineSplitter {
  private rest = ""

  push(chunk: string): Array<string> {
    const text = this.rest + chunk
    const parts = text.split("\n")
    this.rest = parts.pop() ?? ""
    return parts.map((line) => line.replace(/\r$/, "")).filter((line) => line.trim() !== "")
  }

  end(): Array<string> {
    const last = this.rest.replace(/\r$/, "")
    this.rest = ""
    return last.trim() === "" ? [] : [last]
  }
}

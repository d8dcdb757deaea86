/** What a migration did (or, in a dry run, would do) per kind, and what the verification found. */
import type { Kind } from "./model.js"
import { KINDS } from "./model.js"

export interface Counts {
  created: number
  updated: number
  unchanged: number
  skipped: number
  deleted: number
}

export interface Verified {
  readonly kind: Kind
  readonly source: number
  readonly target: number
  readonly sourceDigest: string
  readonly targetDigest: string
  readonly equal: boolean
}

export class Report {
  readonly counts = new Map<Kind, Counts>(KINDS.map((kind) => [kind, { created: 0, updated: 0, unchanged: 0, skipped: 0, deleted: 0 }]))
  /** Why something was skipped, renamed or cannot be carried: one line each, printed by the dry run and the run. */
  readonly notes: Array<string> = []
  /** Conflicts with data already in Gloss that `--on-conflict fail` stops on. */
  readonly conflicts: Array<string> = []
  /** Users whose password could not be carried (the REST API does not give hashes): they set one with the link. */
  readonly passwordLinks: Array<{ readonly username: string; readonly link: string }> = []
  verified: ReadonlyArray<Verified> = []

  add(kind: Kind, what: keyof Counts, n = 1): void {
    if (n > 0) this.counts.get(kind)![what] += n
  }
  skip(kind: Kind, reason: string, n = 1): void {
    if (n <= 0) return
    this.add(kind, "skipped", n)
    this.notes.push(`${kind}: ${n} skipped: ${reason}`)
  }

  get verifiedEqual(): boolean {
    return this.verified.every((v) => v.equal)
  }

  /** The table of counts, one line per kind. */
  lines(dryRun: boolean): ReadonlyArray<string> {
    const verb = dryRun ? "would be " : ""
    const width = Math.max(...KINDS.map((kind) => kind.length))
    return KINDS.map((kind) => {
      const c = this.counts.get(kind)!
      return `${kind.padEnd(width)}  ${verb}created ${c.created}, ${verb}updated ${c.updated}, unchanged ${c.unchanged}, ` +
        `skipped ${c.skipped}, ${verb}deleted ${c.deleted}`
    })
  }

  verificationLines(): ReadonlyArray<string> {
    const width = Math.max(...KINDS.map((kind) => kind.length))
    return this.verified.map((v) =>
      `${v.kind.padEnd(width)}  Argilla ${v.source} (${v.sourceDigest}), Gloss ${v.target} (${v.targetDigest}): ${v.equal ? "equal" : "DIFFERENT"}`
    )
  }
}

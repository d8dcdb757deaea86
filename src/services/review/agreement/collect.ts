/**
 * One pass over a question's records: every submitted answer interned to a value id, the records sorted into
 * compared (two or more answers), single and unanswered, and the answers of each pair of coders on the records both
 * answered, where the coders are the annotators, the suggestion and the majority answer.
 */
import { Interner } from "./answers.js"
import { IntList, type Units } from "./units.js"

export interface AgreementUnit {
  readonly recordId: string
  /** Submitted responses only, each with the response's `values[question].value` as stored. */
  readonly answers: ReadonlyArray<{ readonly userId: string; readonly value: unknown }>
  readonly suggestion?: unknown
}

export interface Annotator {
  readonly id: string
  readonly username: string
  /** Submitted answers to this question. */
  readonly answers: number
}

export interface Collected<T> {
  readonly items: ReadonlyArray<T>
  readonly distinct: number
  /** The compared records' values. */
  readonly units: Units
  readonly single: number
  readonly unanswered: number
  readonly disagreeing: number
  /** In order of username, then id. */
  readonly annotators: ReadonlyArray<Annotator>
  /** `[a0, b0, a1, b1, …]`: annotators a and b (indices into `annotators`, a < b) on the records both answered. */
  pair(a: number, b: number): Int32Array
  /** `[answer, suggestion, …]`: the annotator against the suggestion on the records that have both. */
  withSuggestion(annotator: number): Int32Array
  /** `[suggestion, majority, …]` over the records with a suggestion and a majority answer; null without suggestions. */
  readonly suggestionAgainstMajority: Int32Array | null
}

export const collect = <T>(
  interner: Interner<T>,
  units: ReadonlyArray<AgreementUnit>,
  usernames: ReadonlyMap<string, string>
): Collected<T> => {
  // Annotators get an index as they are met, and are renumbered in username order at the end.
  const seen = new Map<string, number>()
  const answerCounts: Array<number> = []
  const values = new IntList(1024)
  const offsets = new IntList(256)
  const pairs = new Map<number, IntList>()
  const suggested = new Map<number, IntList>()
  const majority = new IntList()
  let suggestions = 0
  let single = 0
  let unanswered = 0
  let disagreeing = 0
  // Reused per record: the coders and value ids of its answers.
  const coders: Array<number> = []
  const ids: Array<number> = []
  offsets.push(0)
  const STRIDE = 1 << 20
  const listOf = (lists: Map<number, IntList>, key: number): IntList => {
    let list = lists.get(key)
    if (list === undefined) {
      list = new IntList()
      lists.set(key, list)
    }
    return list
  }
  for (const unit of units) {
    coders.length = 0
    ids.length = 0
    for (const answer of unit.answers) {
      const id = interner.intern(answer.value)
      if (id < 0) continue
      let coder = seen.get(answer.userId)
      if (coder === undefined) {
        coder = answerCounts.length
        seen.set(answer.userId, coder)
        answerCounts.push(0)
      } else if (coders.includes(coder)) continue
      answerCounts[coder] = (answerCounts[coder] ?? 0) + 1
      coders.push(coder)
      ids.push(id)
    }
    const m = ids.length
    if (m === 0) unanswered++
    else if (m === 1) single++
    else {
      let differ = false
      for (let i = 0; i < m; i++) {
        const a = ids[i] ?? 0
        values.push(a)
        if (a !== ids[0]) differ = true
        for (let j = i + 1; j < m; j++) {
          const b = ids[j] ?? 0
          const ca = coders[i] ?? 0
          const cb = coders[j] ?? 0
          const list = listOf(pairs, ca < cb ? ca * STRIDE + cb : cb * STRIDE + ca)
          list.push(ca < cb ? a : b)
          list.push(ca < cb ? b : a)
        }
      }
      offsets.push(values.length)
      if (differ) disagreeing++
    }
    if (unit.suggestion === undefined || m === 0) continue
    const suggestion = interner.intern(unit.suggestion)
    if (suggestion < 0) continue
    suggestions++
    for (let i = 0; i < m; i++) {
      const list = listOf(suggested, coders[i] ?? 0)
      list.push(ids[i] ?? 0)
      list.push(suggestion)
    }
    const top = majorityOf(ids)
    if (top >= 0) {
      majority.push(suggestion)
      majority.push(top)
    }
  }
  const byMeeting = [...seen.entries()].map(([id, at]) => ({
    id,
    username: usernames.get(id) ?? id,
    answers: answerCounts[at] ?? 0,
    at
  }))
  byMeeting.sort((a, b) => a.username.localeCompare(b.username) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const empty = new Int32Array(0)
  const annotators = byMeeting.map(({ answers, id, username }) => ({ id, username, answers }))
  return {
    items: interner.items,
    distinct: interner.size,
    units: { values: values.toArray(), offsets: offsets.toArray() },
    single,
    unanswered,
    disagreeing,
    annotators,
    pair: (a, b) => {
      const ca = byMeeting[a]?.at ?? 0
      const cb = byMeeting[b]?.at ?? 0
      const list = pairs.get(ca < cb ? ca * STRIDE + cb : cb * STRIDE + ca)
      if (list === undefined) return empty
      const flat = list.toArray()
      // Stored lowest meeting index first: swap so the first of each pair is annotator a.
      if (ca > cb) for (let i = 0; i < flat.length; i += 2) [flat[i], flat[i + 1]] = [flat[i + 1] ?? 0, flat[i] ?? 0]
      return flat
    },
    withSuggestion: (annotator) => suggested.get(byMeeting[annotator]?.at ?? -1)?.toArray() ?? empty,
    suggestionAgainstMajority: suggestions === 0 ? null : majority.toArray()
  }
}

/** The value more than half of the answers share, or -1 when there is none. */
const majorityOf = (ids: ReadonlyArray<number>): number => {
  // Boyer–Moore majority vote, then a count to confirm it.
  let candidate = -1
  let votes = 0
  for (const id of ids) {
    if (votes === 0) candidate = id
    votes += id === candidate ? 1 : -1
  }
  let count = 0
  for (const id of ids) if (id === candidate) count++
  return count * 2 > ids.length ? candidate : -1
}

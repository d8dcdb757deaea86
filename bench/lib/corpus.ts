/**
 * Text for the search benchmark that behaves like language: a 20 000-word vocabulary whose frequencies follow
 * Zipf's law (the r-th word is used about 1/r as often as the first), so that, as in real annotation data, a few
 * words are in most records and most words in few. A uniform draw from a few dozen words — what the ingest
 * benchmark uses, where only the bytes matter — would put every query word in nine records of ten, a workload no
 * full-text index is built for.
 *
 * The queries cover the frequency range on purpose (see `QUERY_WORDS`): a search engine's tail latency comes from
 * its common words, since every match has to be ranked and counted.
 */
const VOCABULARY_SIZE = 20_000
const EXPONENT = 1.07

/** Readable, distinct made-up words: two to four syllables from a fixed table. */
const syllables = "ba be bi bo bu da de di do du fa fe fi fo fu ka ke ki ko ku la le li lo lu ma me mi mo mu na ne ni no nu pa pe pi po pu ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo vu za ze zi zo zu".split(" ")
const word = (n: number) => {
  let out = ""
  let rest = n
  do {
    out += syllables[rest % syllables.length]
    rest = Math.floor(rest / syllables.length)
  } while (rest > 0)
  return `${out}${syllables[n % 7]}`
}

const vocabulary = Array.from({ length: VOCABULARY_SIZE }, (_, rank) => word(rank + 1))

/** Cumulative probabilities of the ranks, for sampling by binary search. */
const cumulative = (() => {
  const weights = vocabulary.map((_, rank) => 1 / (rank + 1) ** EXPONENT)
  const total = weights.reduce((a, b) => a + b, 0)
  let sum = 0
  return weights.map((w) => (sum += w / total))
})()

const sample = (u: number) => {
  let low = 0
  let high = cumulative.length - 1
  while (low < high) {
    const middle = (low + high) >> 1
    if ((cumulative[middle] ?? 1) < u) low = middle + 1
    else high = middle
  }
  return vocabulary[low] ?? "word"
}

/** Deterministic Zipf-distributed text of about `length` characters. */
export const zipfText = (seed: number, length: number) => {
  let state = (seed * 2654435761) % 4294967296
  const words: Array<string> = []
  let size = 0
  while (size < length) {
    state = (state * 1664525 + 1013904223) % 4294967296
    const next = sample(state / 4294967296)
    words.push(next)
    size += next.length + 1
  }
  return words.join(" ")
}

/**
 * One query word from each of five frequency bands (ranks 50, 200, 1 000, 5 000 and 15 000): with two fields of
 * ~300 characters per record they are found in about 18 %, 4 %, 0.7 %, 0.14 % and 0.03 % of the records. The top
 * few dozen ranks are left out as a language's function words are ("the", "of", "and"): nobody searches for them.
 */
export const QUERY_WORDS = [50, 200, 1_000, 5_000, 15_000].map((rank) => vocabulary[rank - 1] ?? "word")

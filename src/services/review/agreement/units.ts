/**
 * The answers a statistic is computed over: for each compared record (a "unit" in Krippendorff's terms), the ids of
 * its pairable values (two or more answers), flat in one array with the offset where each unit starts. Two coders'
 * answers on the records both answered are the same shape with every unit two long.
 */
export interface Units {
  /** Value ids, unit after unit. */
  readonly values: Int32Array
  /** `offsets[u]` is where unit u starts; one more offset than units, the last one `values.length`. */
  readonly offsets: Int32Array
}

export const unitCount = (units: Units): number => units.offsets.length - 1

/** Units of two values each, from `[a0, b0, a1, b1, …]`. */
export const pairUnits = (values: Int32Array): Units => {
  const offsets = new Int32Array(values.length / 2 + 1)
  for (let u = 0; u < offsets.length; u++) offsets[u] = u * 2
  return { values, offsets }
}

/** A growable list of 32-bit integers: units are collected record by record without an array per record. */
export class IntList {
  private data: Int32Array
  length = 0
  constructor(capacity = 16) {
    this.data = new Int32Array(capacity)
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2)
      grown.set(this.data)
      this.data = grown
    }
    this.data[this.length++] = value
  }
  toArray(): Int32Array {
    return this.data.slice(0, this.length)
  }
}

/** How many times each value id occurs among the units' values. */
export const valueCounts = (units: Units, distinct: number): Float64Array => {
  const counts = new Float64Array(distinct)
  for (const id of units.values) counts[id] = (counts[id] ?? 0) + 1
  return counts
}

/** A statistic's value, or null with the reason it is undefined on these answers. */
export interface Estimate {
  readonly value: number | null
  readonly note: string | null
}

export const defined = (value: number, note: string | null = null): Estimate => ({ value, note })
export const undefinedBecause = (note: string): Estimate => ({ value: null, note })

export const NO_COMPARED = "no record has two submitted answers to compare"
export const ONE_VALUE = "every answer has the same value, so agreement cannot be told apart from chance"
export const ONE_CATEGORY = "one category only, so agreement cannot be told apart from chance"

/** The mean of the defined values, or null when none is. */
export const meanOf = (values: ReadonlyArray<number | null>): number | null => {
  let sum = 0
  let count = 0
  for (const value of values) {
    if (value === null) continue
    sum += value
    count++
  }
  return count === 0 ? null : sum / count
}

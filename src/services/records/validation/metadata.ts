/** Record metadata against the dataset's metadata properties (terms lists, integer and float ranges). */
import { Either } from "effect"
import { type Check, fail, hasNonFinite, isArray, isFiniteNumber, isInteger, jsonEqual, ok, show } from "./common.js"
import type { MetadataSpec, ValidationContext } from "./context.js"

const withinBounds = (value: number, min: number | null, max: number | null): Check => {
  if (min !== null && value < min) return fail(`${show(value)} is less than the minimum value of ${show(min)}`)
  if (max !== null && value > max) return fail(`${show(value)} is greater than the maximum value of ${show(max)}`)
  return ok
}

const validateValue = ({ settings }: MetadataSpec, value: unknown): Check => {
  switch (settings.type) {
    case "terms": {
      if (settings.values === null) return ok
      const allowed = settings.values
      // A list value is a record tagged with several terms; each must be allowed.
      const terms = isArray(value) ? value : [value]
      const rejected = terms.findIndex((term) => !allowed.some((candidate) => jsonEqual(candidate, term)))
      return rejected < 0 ? ok : fail(`${show(terms[rejected])} is not an allowed term`)
    }
    case "integer":
      return isInteger(value) ? withinBounds(value, settings.min, settings.max) : fail(`${show(value)} is not an integer`)
    case "float":
      // Argilla refuses `3` and accepts `3.0` (a Python type check), but once JSON is parsed in JS both are the same
      // number, so any finite number is accepted; refusing all whole numbers would refuse `3.0` too.
      return isFiniteNumber(value) ? withinBounds(value, settings.min, settings.max) : fail(`${show(value)} is not a float`)
  }
}

// Early returns rather than `Either.gen`, as for fields: this runs for every record of a bulk write.
export const validateMetadata = (ctx: ValidationContext, metadata: Readonly<Record<string, unknown>>): Check => {
  for (const name in metadata) {
    if (!Object.hasOwn(metadata, name)) continue
    const value = metadata[name]
    if (hasNonFinite(value)) {
      return fail(`metadata is not valid: NaN and Infinity are not allowed as metadata values, found one for key '${name}'`)
    }
    const property = ctx.metadataProperties.find((candidate) => candidate.name === name)
    if (property === undefined) {
      if (ctx.allowExtraMetadata) continue
      return fail(
        `metadata is not valid: metadata property \`${name}\` does not exist for dataset \`${ctx.datasetId}\` ` +
          "and extra metadata is not allowed for this dataset"
      )
    }
    // A null value means "no value for this property", as in Argilla: nothing to check.
    if (value === null) continue
    const checked = validateValue(property, value)
    if (Either.isLeft(checked)) {
      return fail(`metadata is not valid: '${name}' metadata property validation failed because ${checked.left}`)
    }
  }
  return ok
}

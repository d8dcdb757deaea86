/** Record vectors against the dataset's vector settings (names and dimensions). */
import { Either } from "effect"
import { type Check, fail, isFiniteNumber, show } from "./common.js"
import type { ValidationContext } from "./context.js"

export const validateVectors = (
  ctx: ValidationContext,
  vectors: Readonly<Record<string, ReadonlyArray<unknown>>>
): Check =>
  Either.gen(function*() {
    for (const [name, value] of Object.entries(vectors)) {
      const settings = ctx.vectorSettings.find((candidate) => candidate.name === name)
      if (settings === undefined) {
        return yield* fail(`vector with name='${name}' does not exist for dataset \`${ctx.datasetId}\``)
      }
      if (value.length !== settings.dimensions) {
        return yield* fail(
          `vector value for vector name='${name}' must have ${settings.dimensions} elements, got ${value.length} elements`
        )
      }
      // NaN and Infinity have no JSON form and break similarity search, so they never reach storage.
      const bad = value.findIndex((element) => !isFiniteNumber(element))
      if (bad >= 0) {
        return yield* fail(`vector value for vector name='${name}' must hold finite numbers, found ${show(value[bad])} at index ${bad}`)
      }
    }
  })

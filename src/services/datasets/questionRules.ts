/**
 * The rules of question settings that a schema alone cannot state: limits that come from configuration, and what
 * an update may change, as Argilla rules them. Pure functions, so they are tested without a server.
 */
import { Either } from "effect"
import { Unprocessable, ValidationError } from "../../domain/Errors.js"
import type { QuestionSettings, QuestionSettingsUpdate } from "../../domain/Question.js"

export interface OptionLimits {
  readonly labelSelectionOptionsMaxItems: number
  readonly spanOptionsMaxItems: number
}

const tooMany = (max: number, variable: string, count: number) =>
  new ValidationError({
    errors: [{
      loc: ["settings", "options"],
      msg: `at most ${max} options are allowed (${variable}), got ${count}`,
      type: "too_long"
    }]
  })

/** Label, multi-label and span questions may not have more options than configured. */
export const checkOptionLimits = (settings: QuestionSettings, limits: OptionLimits): Either.Either<void, ValidationError> => {
  switch (settings.type) {
    case "label_selection":
    case "multi_label_selection":
      return settings.options.length > limits.labelSelectionOptionsMaxItems
        ? Either.left(
          tooMany(limits.labelSelectionOptionsMaxItems, "GLOSS_LABEL_SELECTION_OPTIONS_MAX_ITEMS", settings.options.length)
        )
        : Either.void
    case "span":
      return settings.options.length > limits.spanOptionsMaxItems
        ? Either.left(tooMany(limits.spanOptionsMaxItems, "GLOSS_SPAN_OPTIONS_MAX_ITEMS", settings.options.length))
        : Either.void
    default:
      return Either.void
  }
}

const values = (options: ReadonlyArray<{ readonly value: string }>) => options.map((option) => option.value)

/**
 * The settings after `update`: the type never changes; options may be re-sent only as the same set of values
 * (texts, descriptions and order may change); a span question never goes from overlapping to not.
 */
export const applySettingsUpdate = (
  current: QuestionSettings,
  update: QuestionSettingsUpdate
): Either.Either<QuestionSettings, Unprocessable> => {
  const fail = (detail: string) => Either.left(new Unprocessable({ detail }))
  if (update.type !== current.type) {
    return fail(`Question type cannot be changed. Expected '${current.type}' but got '${update.type}'`)
  }
  if (current.type === "text" && update.type === "text") {
    return Either.right({ ...current, use_markdown: update.use_markdown ?? current.use_markdown })
  }
  if (current.type === "rating" || current.type === "ranking" || current.type === "text") return Either.right(current)
  if (update.type === "text" || update.type === "rating" || update.type === "ranking") return Either.right(current)

  const options = update.options ?? current.options
  const before = values(current.options)
  const after = values(options)
  if (after.length !== before.length || after.some((value) => !before.includes(value))) {
    return fail(
      `The options of a question can only be reworded or reordered, not added or removed: expected the values ` +
        `${JSON.stringify(before)}, got ${JSON.stringify(after)}`
    )
  }
  const visible = update.visible_options === undefined ? current.visible_options : update.visible_options
  if (visible !== null && visible > options.length) {
    return fail(`visible_options (${visible}) must not exceed the number of options (${options.length})`)
  }
  switch (current.type) {
    case "label_selection":
      return Either.right({ ...current, options, visible_options: visible })
    case "multi_label_selection":
      return Either.right({
        ...current,
        options,
        visible_options: visible,
        options_order: update.options_order ?? current.options_order
      })
    case "span": {
      const overlapping = update.allow_overlapping ?? current.allow_overlapping
      if (current.allow_overlapping && !overlapping) {
        return fail("allow_overlapping cannot be changed from true to false")
      }
      return Either.right({ ...current, options, visible_options: visible, allow_overlapping: overlapping })
    }
  }
}

/**
 * The small kinds' decisions, made before anything is written: which Argilla user, workspace or dataset becomes
 * which Gloss row, and what happens when Gloss already has one of the same name under another id (a conflict: never
 * merged by guess; `--on-conflict` says to stop, skip it or rename it).
 */
import { Either, Schema } from "effect"
import { FieldSettings } from "../domain/Field.js"
import { MetadataSettings } from "../domain/MetadataProperty.js"
import { QuestionSettings } from "../domain/Question.js"
import type { DatasetSettings } from "./model.js"

export type OnConflict = "skip" | "fail" | "rename"

/** What happens to one named thing of Argilla's in Gloss. */
export type Decision =
  | { readonly _tag: "write"; readonly name: string }
  | { readonly _tag: "skip"; readonly reason: string }

/**
 * Decides for a thing named `name` with id `id`, given the Gloss ids that hold each name now (`taken`). A name held
 * by the same id is the thing itself (migrated before). `reserve` keeps renames unique within one run.
 */
export const decide = (
  what: string,
  id: string,
  name: string,
  taken: ReadonlyMap<string, string>,
  onConflict: OnConflict,
  conflicts: Array<string>
): Decision => {
  const holder = taken.get(name)
  if (holder === undefined || holder === id) return { _tag: "write", name }
  const message = `${what} '${name}' exists in Gloss already (id ${holder}; Argilla's is ${id})`
  switch (onConflict) {
    case "fail":
      conflicts.push(message)
      return { _tag: "skip", reason: message }
    case "skip":
      return { _tag: "skip", reason: `${message}: skipped (--on-conflict skip)` }
    case "rename": {
      let candidate = `${name}-argilla`
      for (let n = 2; taken.has(candidate) && taken.get(candidate) !== id; n++) candidate = `${name}-argilla-${n}`
      return { _tag: "write", name: candidate }
    }
  }
}

const fieldSettings = Schema.decodeUnknownEither(FieldSettings)
const questionSettings = Schema.decodeUnknownEither(QuestionSettings)
const metadataSettings = Schema.decodeUnknownEither(MetadataSettings)

/**
 * What in a dataset's settings Gloss cannot hold (a field, question or metadata type it does not know, or settings
 * it would refuse), one line each; none means the dataset can be carried whole.
 */
export const unholdable = (settings: DatasetSettings): ReadonlyArray<string> => [
  ...settings.fields.flatMap((field) =>
    Either.isLeft(fieldSettings(field.settings)) ? [`field '${field.name}' has settings Gloss does not know: ${JSON.stringify(field.settings)}`] : []
  ),
  ...settings.questions.flatMap((question) =>
    Either.isLeft(questionSettings(question.settings))
      ? [`question '${question.name}' has settings Gloss does not know: ${JSON.stringify(question.settings)}`]
      : []
  ),
  ...settings.metadataProperties.flatMap((property) =>
    Either.isLeft(metadataSettings(property.settings))
      ? [`metadata property '${property.name}' has settings Gloss does not know: ${JSON.stringify(property.settings)}`]
      : []
  )
]

/**
 * Argilla keeps which roles see a metadata property; Gloss keeps whether annotators do (admins and owners always
 * do). What Argilla writes ([admin] for hidden, [admin, annotator] for visible) carries over exactly; a role list
 * naming anything else (an owner alone) is said, not dropped.
 */
export const visibilityNotes = (settings: DatasetSettings): ReadonlyArray<string> =>
  settings.metadataProperties.flatMap((property) => {
    const roles = property.allowed_roles
    const exact = roles.every((role) => role === "admin" || role === "annotator")
    return exact ? [] : [
      `metadata property '${property.name}' is visible to ${JSON.stringify(roles)} in Argilla; in Gloss it is ` +
      `${roles.includes("annotator") ? "visible to annotators" : "hidden from annotators"} (admins and owners always see it)`
    ]
  })

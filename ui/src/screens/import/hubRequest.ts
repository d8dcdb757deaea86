/**
 * The Hub tab's form as the request of `POST /datasets/{id}/import`, or what is wrong with it: the repo id, subset and
 * split as the endpoint's schema takes them (`src/domain/HubTransfer.ts`), and a column for at least one field and for
 * every required field. Columns are typed per target (`field:<name>`, `metadata:<name>`, `suggestion:<question>`);
 * empty ones are left out.
 */
import { Schema } from "effect"
import type { Field } from "../../../../src/domain/Field.js"
import { DatasetHubImport, HubRepoId } from "../../../../src/domain/HubTransfer.js"

const isRepoId = Schema.is(HubRepoId)
const isSegment = Schema.is(DatasetHubImport.fields.subset)

export type Columns = Readonly<Record<string, string>>

const items = (columns: Columns, prefix: string) =>
  Object.entries(columns)
    .filter(([key, source]) => key.startsWith(prefix) && source.trim() !== "")
    .map(([key, source]) => ({ source: source.trim(), target: key.slice(prefix.length) }))

/** The request the form describes, or what is wrong with it. */
export const hubRequest = (
  form: { readonly name: string; readonly subset: string; readonly split: string; readonly columns: Columns; readonly externalId: string },
  fields: ReadonlyArray<Pick<Field, "name" | "title" | "required">>
): { readonly request: DatasetHubImport } | { readonly problems: ReadonlyArray<string> } => {
  const problems: Array<string> = []
  if (!isRepoId(form.name.trim())) problems.push("The repo id is a Hub dataset's “owner/name”.")
  if (!isSegment(form.subset.trim())) problems.push("The subset is 1 to 128 letters, digits, “-”, “_” or “.”.")
  if (!isSegment(form.split.trim())) problems.push("The split is 1 to 128 letters, digits, “-”, “_” or “.”.")
  const mappedFields = items(form.columns, "field:")
  if (mappedFields.length === 0) problems.push("Give the column of at least one field.")
  for (const field of fields) {
    if (field.required && !mappedFields.some((item) => item.target === field.name)) {
      problems.push(`The required field “${field.title}” has no column.`)
    }
  }
  if (problems.length > 0) return { problems }
  const metadata = items(form.columns, "metadata:")
  const suggestions = items(form.columns, "suggestion:")
  return {
    request: {
      name: form.name.trim(),
      subset: form.subset.trim(),
      split: form.split.trim(),
      mapping: {
        fields: mappedFields,
        ...(metadata.length > 0 ? { metadata } : {}),
        ...(suggestions.length > 0 ? { suggestions } : {}),
        ...(form.externalId.trim() === "" ? {} : { external_id: form.externalId.trim() })
      }
    }
  }
}


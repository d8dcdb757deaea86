import { Conflict } from "../../domain/Errors.js"
import type { DatasetId } from "../../domain/Ids.js"

/** The 409 of a dataset setting whose name is already taken in its dataset, in Argilla's words. */
export const settingNameTaken = (
  kind: "Field" | "Question" | "Metadata property" | "Vector settings",
  name: string,
  datasetId: DatasetId
) => new Conflict({ detail: `${kind} with name \`${name}\` already exists for dataset with id \`${datasetId}\`` })

import { Stream } from "effect"
import { UsageError } from "./admin.js"

/** CSV rows as objects keyed by the header row (added with the CSV library; see RecordsCommand). */
export const parseCsv = (file: string): Stream.Stream<Readonly<Record<string, unknown>>, UsageError> =>
  Stream.fail(new UsageError({ message: `CSV import is not available yet (${file})` }))

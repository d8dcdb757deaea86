/** The import's report (what was rejected, said for the rows concerned) and its preview of the first rows as records. */
import type { Field } from "../../../../src/domain/Field.js"
import type { MetadataProperty } from "../../../../src/domain/MetadataProperty.js"
import { problemsOf } from "../../data/settings.js"
import { type Mapping, toRecord } from "./mapping.js"
import type { SourceRow } from "./source.js"

export interface Rejection {
  /** Line numbers (data rows, from 1) the reason is about. */
  readonly lines: string
  readonly count: number
  readonly reason: string
}

export interface Progress {
  readonly bytesRead: number
  readonly rowsRead: number
  readonly imported: number
  readonly rejected: number
}

export const MAX_REASONS = 100

/** The server's problems with a batch, each said for the row it names (`items.3.fields` → that row's line). */
export const batchRejections = (error: unknown, batch: ReadonlyArray<{ readonly line: number }>): Array<Rejection> => {
  const first = batch[0]?.line ?? 0
  const last = batch.at(-1)?.line ?? 0
  const problems = problemsOf(error)
  return problems.map((problem) => {
    const index = /^items\.(\d+)/.exec(problem.path)?.[1]
    const line = index === undefined ? undefined : batch[Number(index)]?.line
    const where = line === undefined ? "" : `row ${line}: `
    return { lines: `${first}–${last}`, count: batch.length, reason: `${where}${problem.path === "" ? "" : `${problem.path}: `}${problem.message}` }
  })
}

export const Preview = (props: {
  readonly rows: ReadonlyArray<SourceRow>
  readonly mapping: Mapping
  readonly fields: ReadonlyArray<Field>
  readonly metadata: ReadonlyArray<MetadataProperty>
}) => {
  const shown = props.rows.slice(0, 5)
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Preview of the first records">
      <table className="import-preview">
        <caption className="visually-hidden">The first rows as records</caption>
        <thead>
          <tr><th scope="col">Row</th><th scope="col">Record</th></tr>
        </thead>
        <tbody>
          {shown.map((row) => {
            const result = "error" in row ? { error: row.error } : toRecord(row.values, props.mapping, props.fields, props.metadata)
            return (
              <tr key={row.line}>
                <th scope="row">{row.line}</th>
                <td>
                  {"error" in result
                    ? <span className="error">Rejected: {result.error}</span>
                    : (
                      <dl className="preview-record">
                        {Object.entries(result.record.fields).map(([name, value]) => (
                          <div key={`f-${name}`}><dt>{name}</dt><dd>{typeof value === "string" ? value : JSON.stringify(value)}</dd></div>
                        ))}
                        {Object.entries(result.record.metadata ?? {}).map(([name, value]) => (
                          <div key={`m-${name}`}><dt>metadata.{name}</dt><dd>{JSON.stringify(value)}</dd></div>
                        ))}
                        {result.record.external_id === undefined ? null : <div><dt>external_id</dt><dd>{result.record.external_id}</dd></div>}
                      </dl>
                    )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

/** The import's report (what was rejected, said for the rows concerned) and its preview of the first rows as records. */
import type { Field } from "../../../../src/domain/Field.js"
import type { MetadataProperty } from "../../../../src/domain/MetadataProperty.js"
import { problemsOf } from "../../data/settings.js"
import { type Mapping, type MoreSettings, toRecord } from "./mapping.js"
import type { SourceRow } from "./source.js"
import { MAX_LISTED, type RowTally } from "./validate.js"

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
  readonly more?: MoreSettings
}) => {
  const shown = props.rows.slice(0, 5)
  const questionName = new Map((props.more?.questions ?? []).map((q) => [q.id, q.name]))
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Preview of the first records">
      <table className="import-preview">
        <caption className="visually-hidden">The first rows as records</caption>
        <thead>
          <tr><th scope="col">Row</th><th scope="col">Record</th></tr>
        </thead>
        <tbody>
          {shown.map((row) => {
            const result = "error" in row ? { error: row.error } : toRecord(row.values, props.mapping, props.fields, props.metadata, props.more)
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
                        {(result.record.suggestions ?? []).map((suggestion) => (
                          <div key={`s-${suggestion.question_id}`}>
                            <dt>suggestion.{questionName.get(suggestion.question_id)}</dt>
                            <dd>
                              {JSON.stringify(suggestion.value)}
                              {suggestion.score === undefined ? "" : `, score ${JSON.stringify(suggestion.score)}`}
                              {suggestion.agent === undefined ? "" : `, by ${suggestion.agent}`}
                            </dd>
                          </div>
                        ))}
                        {(result.record.responses ?? []).flatMap((response) =>
                          Object.entries(response.values).map(([name, answer]) => (
                            <div key={`r-${name}`}><dt>response.{name}</dt><dd>{JSON.stringify(answer.value)} ({response.status})</dd></div>
                          ))
                        )}
                        {Object.entries(result.record.vectors ?? {}).map(([name, vector]) => (
                          <div key={`v-${name}`}><dt>vector.{name}</dt><dd>{vector.length} numbers</dd></div>
                        ))}
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

/** "Check every row": the whole file read and checked in the browser, and what the import would reject. */
export const RowCheck = (props: {
  readonly state: "idle" | "running" | "done"
  readonly tally: RowTally
  readonly disabled: boolean
  readonly onCheck: () => void
}) => {
  const { tally } = props
  return (
    <div className="import-check">
      <div className="settings-save">
        <button type="button" className="secondary" disabled={props.disabled || props.state === "running"} onClick={props.onCheck}>
          Check every row
        </button>
      </div>
      {props.state === "idle" ? null : (
        <div role="status" aria-label="Row check">
          <p className="import-status">
            {props.state === "running" ? `Checking… ${tally.checked} rows so far.` : (
              <>
                {tally.checked} rows checked: <strong>{tally.valid} will be imported</strong>, <strong>{tally.rejected} will be rejected</strong>
                {tally.rejected > 0 ? " (the import skips them)." : "."}
              </>
            )}
          </p>
          {props.state === "done" && tally.first.length > 0 ? (
            <div className="table-scroll" tabIndex={0} role="region" aria-label="Rows that would be rejected">
              <table className="import-preview">
                <thead>
                  <tr><th scope="col">Row</th><th scope="col">Why</th></tr>
                </thead>
                <tbody>
                  {tally.first.map((r) => (
                    <tr key={r.line}><th scope="row">{r.line}</th><td>{r.reason}</td></tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          {props.state === "done" && tally.rejected > MAX_LISTED ? <p className="muted">Only the first {MAX_LISTED} are listed.</p> : null}
        </div>
      )}
    </div>
  )
}

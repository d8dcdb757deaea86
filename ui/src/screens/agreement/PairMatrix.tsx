/**
 * The annotator × annotator matrix of one question: a real table, usernames as column and row headers, each cell
 * the pair's figure on the records both answered, tinted by its reading (the number and the reading's word are
 * always in the cell: the colour is never alone).
 */
import type { AnnotatorAgreement, AnnotatorPair } from "../../../../src/domain/Review.js"
import { figureName, formatValue, pairLookup, readingOf } from "./figures.js"

export const PairMatrix = (props: {
  readonly question: string
  readonly annotators: ReadonlyArray<AnnotatorAgreement>
  readonly pairs: ReadonlyArray<AnnotatorPair>
}) => {
  const { annotators, pairs } = props
  const first = pairs[0]
  if (annotators.length < 2 || first === undefined) {
    return <p className="muted">No two annotators have answered the same record yet.</p>
  }
  const pair = pairLookup(pairs)
  return (
    <div className="agreement-scroll" role="region" aria-label={`Annotator pairs, ${props.question}`} tabIndex={0}>
      <table className="agreement-table agreement-matrix">
        <caption>
          Annotator pairs: {figureName(first)} on the records both answered
        </caption>
        <thead>
          <tr>
            <th scope="col"><span className="visually-hidden">Annotator</span></th>
            {annotators.map((a) => <th key={a.user_id} scope="col">{a.username}</th>)}
          </tr>
        </thead>
        <tbody>
          {annotators.map((row) => (
            <tr key={row.user_id}>
              <th scope="row">{row.username}</th>
              {annotators.map((column) => {
                if (column.user_id === row.user_id) return <td key={column.user_id} className="agreement-cell agreement-self">·</td>
                const cell = pair(row.user_id, column.user_id)
                const value = cell?.value ?? null
                const reading = readingOf(value)
                const records = cell?.records ?? 0
                return (
                  <td
                    key={column.user_id}
                    className={`agreement-cell agreement-${reading ?? "none"}`}
                    title={`${row.username} and ${column.username}: ${records} record${records === 1 ? "" : "s"} in common`}
                  >
                    <span className="agreement-number">{formatValue(value)}</span>
                    <span className="agreement-cell-note">{reading ?? `${records} in common`}</span>
                  </td>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

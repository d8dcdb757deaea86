/**
 * One question's agreement: its figures with their reading, the records compared and apart, the annotator × annotator
 * matrix, each annotator against the rest and against the model, and per-label figures (multi-label and spans).
 */
import type { DatasetId } from "../../../../src/domain/Ids.js"
import type { AgreementFigure, QuestionAgreement } from "../../../../src/domain/Review.js"
import { Link } from "../../router.js"
import { figureName, formatValue, readingOf } from "./figures.js"
import { disagreementsLink } from "./links.js"
import { PairMatrix } from "./PairMatrix.js"

const TYPES: Readonly<Record<string, string>> = {
  label_selection: "label",
  multi_label_selection: "multi-label",
  rating: "rating",
  ranking: "ranking",
  span: "spans",
  text: "text"
}

/** A value and its reading, or "—" with the reason the statistic is undefined. */
const Value = (props: { readonly value: number | null; readonly note?: string | null | undefined }) => {
  const reading = readingOf(props.value)
  return (
    <>
      <span className={`agreement-value agreement-${reading ?? "none"}`}>{formatValue(props.value)}</span>
      {reading === undefined ? null : <span className="agreement-reading"> {reading}</span>}
      {props.value === null && props.note != null && props.note !== ""
        ? <span className="agreement-note muted" title={props.note}> {props.note}</span>
        : null}
    </>
  )
}

const FiguresTable = (props: { readonly figures: ReadonlyArray<AgreementFigure>; readonly caption: string }) => (
  <table className="agreement-table agreement-figures">
    <caption className="visually-hidden">{props.caption}</caption>
    <thead>
      <tr>
        <th scope="col">Measure</th>
        <th scope="col">Value</th>
        <th scope="col">Records</th>
      </tr>
    </thead>
    <tbody>
      {props.figures.map((figure) => (
        <tr key={`${figure.measure} ${figure.variant ?? ""}`}>
          <th scope="row">{figureName(figure)}</th>
          <td><Value value={figure.value} note={figure.note} /></td>
          <td className="agreement-records">{figure.records}</td>
        </tr>
      ))}
    </tbody>
  </table>
)

const LabelsTable = (props: { readonly report: QuestionAgreement }) => {
  const { labels } = props.report
  const columns = labels[0]?.figures ?? []
  if (labels.length === 0 || columns.length === 0) return null
  return (
    <div className="agreement-scroll" role="region" aria-label={`Per label, ${props.report.question}`} tabIndex={0}>
      <table className="agreement-table agreement-labels">
        <caption>Per label</caption>
        <thead>
          <tr>
            <th scope="col">Label</th>
            {columns.map((f) => <th key={`${f.measure} ${f.variant ?? ""}`} scope="col">{figureName(f)}</th>)}
          </tr>
        </thead>
        <tbody>
          {labels.map((label) => (
            <tr key={label.label}>
              <th scope="row">{label.label}</th>
              {columns.map((column) => {
                const figure = label.figures.find((f) => f.measure === column.measure && f.variant === column.variant)
                return (
                  <td key={`${column.measure} ${column.variant ?? ""}`}>
                    <Value value={figure?.value ?? null} note={figure?.note} />
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

const AnnotatorsTable = (props: { readonly report: QuestionAgreement }) => {
  const { annotators, suggestions } = props.report
  if (annotators.length === 0) return null
  return (
    <div className="agreement-scroll" role="region" aria-label={`Each annotator, ${props.report.question}`} tabIndex={0}>
      <table className="agreement-table agreement-annotators">
        <caption>Each annotator against the others and against the model’s suggestions</caption>
        <thead>
          <tr>
            <th scope="col">Annotator</th>
            <th scope="col">Answers</th>
            <th scope="col">With the others</th>
            <th scope="col">With the model</th>
          </tr>
        </thead>
        <tbody>
          {annotators.map((a) => (
            <tr key={a.user_id}>
              <th scope="row">{a.username}</th>
              <td className="agreement-records">{a.answers}</td>
              <td><Value value={a.with_others} /></td>
              <td>
                {suggestions === null && a.records_with_suggestion === 0
                  ? <span className="muted">no suggestions</span>
                  : (
                    <>
                      <Value value={a.with_suggestions} />
                      <span className="muted agreement-over"> over {a.records_with_suggestion}</span>
                    </>
                  )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

export const QuestionReport = (props: {
  readonly datasetId: DatasetId
  readonly report: QuestionAgreement
  readonly title: string
}) => {
  const { report } = props
  const id = `agreement-${report.question}`
  const multiple = report.labels.length > 0
  return (
    <section className="panel agreement-question" aria-labelledby={id} data-question={report.question}>
      <h2 id={id}>
        {props.title} <span className="muted agreement-type">{TYPES[report.type] ?? report.type}</span>
      </h2>
      <dl className="agreement-counts">
        <div><dt>Compared</dt><dd>{report.records_compared}</dd></div>
        <div><dt>One answer</dt><dd>{report.records_single}</dd></div>
        <div><dt>No answer</dt><dd>{report.records_unanswered}</dd></div>
        <div>
          <dt>Disagreeing</dt>
          <dd>
            {report.records_disagreeing === 0 ? "0" : (
              <Link to={disagreementsLink(props.datasetId, report.question)}>
                {report.records_disagreeing}
                <span className="visually-hidden"> records disagree on {props.title}: review them</span>
              </Link>
            )}
          </dd>
        </div>
      </dl>
      <p className="muted agreement-explain">
        Only submitted answers count; a record is compared when at least two annotators answered it.
        {report.type === "text" ? " Texts agree when they are equal after trimming and ignoring case." : ""}
      </p>
      {report.figures.length === 0
        ? <p className="muted">No figure yet.</p>
        : <FiguresTable figures={report.figures} caption={`${props.title}: figures`} />}
      {report.suggestions === null ? null : (
        <p className="agreement-suggestions">
          The model’s suggestions against the people ({figureName(report.suggestions)}, {report.suggestions.records}{" "}
          records): <Value value={report.suggestions.value} />
        </p>
      )}
      {multiple ? <LabelsTable report={report} /> : null}
      <h3>Between annotators</h3>
      <PairMatrix question={props.title} annotators={report.annotators} pairs={report.pairs} />
      <AnnotatorsTable report={report} />
    </section>
  )
}

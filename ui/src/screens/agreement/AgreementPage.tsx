/**
 * `/dataset/:id/agreement`: how much the annotators agree, per question (owners, admins, and the workspace's
 * reviewers), over every record or those the filters in the URL match. Computed by the server from submitted answers;
 * asked again every few seconds while the page is visible and after the user's own writes (`data/agreement.ts`).
 */
import { useQuery } from "@tanstack/react-query"
import { type FormEvent, useMemo, useState } from "react"
import type { DatasetId } from "../../../../src/domain/Ids.js"
import { agreement } from "../../data/agreement.js"
import { errorMessage } from "../../data/client.js"
import { dataset as datasetQuery, me as meQuery, questions as questionsQuery } from "../../data/queries.js"
import { canReview, isForbidden, mayReview, reviewRights } from "../../data/review.js"
import { Link, setSearch, useLocation } from "../../router.js"
import { DatasetTabs } from "./DatasetTabs.js"
import { disagreementsLink } from "./links.js"
import { QuestionReport } from "./QuestionReport.js"
import { agreementRequest, FILTER_KEYS, filterCount } from "./request.js"
import "./agreement.css"

const REFUSED = "Only owners, admins and the workspace’s reviewers can see the annotators’ agreement."

const Filters = (props: { readonly questions: ReadonlyArray<{ readonly name: string; readonly title: string }> }) => {
  const { search } = useLocation()
  const [text, setText] = useState(search.get("_search") ?? "")
  const others = filterCount(search)
  const apply = (event: FormEvent) => {
    event.preventDefault()
    setSearch({ _search: text.trim() })
  }
  return (
    <form className="agreement-filters" role="search" aria-label="Which records and questions" onSubmit={apply}>
      <div className="agreement-filter">
        <label htmlFor="agreement-question">Question</label>
        <select id="agreement-question" value={search.get("question") ?? ""} onChange={(e) => setSearch({ question: e.target.value })}>
          <option value="">All questions</option>
          {props.questions.map((q) => <option key={q.name} value={q.name}>{q.title}</option>)}
        </select>
      </div>
      <div className="agreement-filter">
        <label htmlFor="agreement-search">Records containing</label>
        <div className="agreement-search">
          <input id="agreement-search" type="search" value={text} onChange={(e) => setText(e.target.value)} />
          <button type="submit">Apply</button>
        </div>
      </div>
      {others === 0 && (search.get("_search") ?? "") === "" ? null : (
        <p className="agreement-filtered">
          {others === 0 ? "" : `${others} filter${others === 1 ? "" : "s"} from the annotation view appl${others === 1 ? "ies" : "y"}. `}
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setText("")
              setSearch(Object.fromEntries(FILTER_KEYS.map((key) => [key, undefined])))
            }}
          >
            Clear the filters
          </button>
        </p>
      )}
    </form>
  )
}

const Report = (props: { readonly datasetId: DatasetId; readonly titles: ReadonlyMap<string, string> }) => {
  const { search } = useLocation()
  const request = useMemo(() => agreementRequest(search), [search])
  const report = useQuery(agreement(props.datasetId, request))
  if (report.isPending) return <p>Computing the agreement…</p>
  if (report.isError) return <p role="alert">{isForbidden(report.error) ? REFUSED : errorMessage(report.error)}</p>
  const { data } = report
  const filtered = request.query !== undefined
  return (
    <>
      <p className="muted agreement-status">
        Over {data.records} record{data.records === 1 ? "" : "s"}{filtered ? " matching the filters" : ""}; computed at{" "}
        <time dateTime={data.computed_at.toISOString()}>{data.computed_at.toLocaleTimeString()}</time>, and again every
        few seconds while this page is open.{" "}
        <Link to={disagreementsLink(props.datasetId)}>Review the disagreements</Link>
      </p>
      {data.questions.length === 0 ? <p>This dataset has no questions to compare.</p> : null}
      {data.questions.map((q) => (
        <QuestionReport key={q.question} datasetId={props.datasetId} report={q} title={props.titles.get(q.question) ?? q.question} />
      ))}
    </>
  )
}

export const AgreementPage = (props: { readonly datasetId: DatasetId }) => {
  const me = useQuery(meQuery).data
  const dataset = useQuery(datasetQuery(props.datasetId))
  const questions = useQuery(questionsQuery(props.datasetId))
  // Owners and admins may anyway; an annotator only where a workspace made them a reviewer.
  const rights = useQuery({ ...reviewRights, enabled: me !== undefined && !canReview(me.role) })
  const name = dataset.data?.name ?? "…"
  const titles = new Map((questions.data ?? []).map((q) => [q.name, q.title]))
  const decided = me !== undefined && dataset.data !== undefined && (canReview(me.role) || !rights.isPending)
  const allowed = decided && mayReview(me.role, rights.data, dataset.data.workspace_id)
  return (
    <main id="main" className="page agreement-page">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/">Datasets</Link> <span aria-hidden="true">/</span>{" "}
        <Link to={`/dataset/${props.datasetId}/annotation-mode`}>{name}</Link>
      </nav>
      <h1>Agreement</h1>
      {dataset.isError ? <p role="alert">{errorMessage(dataset.error)}</p>
        : !decided ? <p>Loading…</p>
        : !allowed ? <p role="alert">{REFUSED}</p>
        : (
          <>
            <DatasetTabs datasetId={props.datasetId} current="agreement" team={canReview(me?.role)} />
            <p className="muted agreement-legend">
              How much the annotators of {name} agree, per question, with the measure that fits its type. Readings:{" "}
              <strong>good</strong> from 0.80, <strong>tentative</strong> from 0.67, <strong>poor</strong> below
              (Krippendorff’s thresholds). A dash means the figure cannot be computed yet, and says why.
            </p>
            <Filters questions={(questions.data ?? []).map((q) => ({ name: q.name, title: q.title }))} />
            <Report datasetId={props.datasetId} titles={titles} />
          </>
        )}
    </main>
  )
}

/**
 * `/dataset/:id/assignments`: who annotates what, for owners and admins. Everyone's share of the work (asked again
 * every few seconds while the page is visible), assigning records to annotators (every record, those the annotation
 * view's filters match, or ids), removing and moving assignments, priorities, quotas, and the queue settings. Every
 * change refreshes the share (`data/assignment.ts`).
 */
import { useQuery } from "@tanstack/react-query"
import type { DatasetId } from "../../../../src/domain/Ids.js"
import { assignmentSummary } from "../../data/assignment.js"
import { errorMessage } from "../../data/client.js"
import { dataset as datasetQuery, me as meQuery } from "../../data/queries.js"
import { canReview, isForbidden } from "../../data/review.js"
import { Link } from "../../router.js"
import { DatasetTabs } from "../agreement/DatasetTabs.js"
import { AssigneeTable } from "./AssigneeTable.js"
import { AssignForm } from "./AssignForm.js"
import { ChangeForm } from "./ChangeForm.js"
import { SettingsForm } from "./SettingsForm.js"
import "./assignment.css"

const REFUSED = "Only owners and admins can assign records."

const Assignments = (props: { readonly datasetId: DatasetId }) => {
  const summary = useQuery(assignmentSummary(props.datasetId))
  if (summary.isPending) return <p>Loading the assignments…</p>
  if (summary.isError) return <p role="alert">{isForbidden(summary.error) ? REFUSED : errorMessage(summary.error)}</p>
  const { data } = summary
  return (
    <>
      <section className="assignment-section" aria-labelledby="assignment-share">
        <h2 id="assignment-share">Who has what</h2>
        <AssigneeTable datasetId={props.datasetId} summary={data} />
      </section>
      <section className="assignment-section" aria-labelledby="assignment-assign">
        <h2 id="assignment-assign">Assign records</h2>
        <AssignForm datasetId={props.datasetId} summary={data} labelledBy="assignment-assign" />
      </section>
      <section className="assignment-section" aria-labelledby="assignment-change">
        <h2 id="assignment-change">Remove or move assignments</h2>
        <ChangeForm datasetId={props.datasetId} users={data.users} />
      </section>
      <section className="assignment-section" aria-labelledby="assignment-settings">
        <h2 id="assignment-settings">Queue settings</h2>
        <SettingsForm datasetId={props.datasetId} settings={data.settings} labelledBy="assignment-settings" />
      </section>
    </>
  )
}

export const AssignmentPage = (props: { readonly datasetId: DatasetId }) => {
  const me = useQuery(meQuery).data
  const dataset = useQuery(datasetQuery(props.datasetId))
  const name = dataset.data?.name ?? "…"
  return (
    <main id="main" className="page agreement-page assignment-page">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/">Datasets</Link> <span aria-hidden="true">/</span>{" "}
        <Link to={`/dataset/${props.datasetId}/annotation-mode`}>{name}</Link>
      </nav>
      <h1>Assignments</h1>
      {dataset.isError ? <p role="alert">{errorMessage(dataset.error)}</p>
        : me === undefined ? <p>Loading…</p>
        : !canReview(me.role) ? <p role="alert">{REFUSED}</p>
        : (
          <>
            <DatasetTabs datasetId={props.datasetId} current="assignments" team />
            <p className="muted agreement-legend">
              Who annotates which records of {name}. An annotator’s queue holds the records assigned to them first,
              then (unless the settings say otherwise) records assigned to nobody, shared as the task distribution
              says. The table is refreshed every few seconds while this page is open.
            </p>
            <Assignments datasetId={props.datasetId} />
          </>
        )}
    </main>
  )
}

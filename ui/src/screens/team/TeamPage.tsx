/** `/dataset/:id/team`: every annotator's progress on one dataset, for owners and admins. */
import { useQuery } from "@tanstack/react-query"
import type { DatasetId } from "../../../../src/domain/Ids.js"
import { errorMessage } from "../../data/client.js"
import { dataset as datasetQuery, me as meQuery } from "../../data/queries.js"
import { canReview } from "../../data/review.js"
import { Link } from "../../router.js"
import { DatasetTabs } from "../agreement/DatasetTabs.js"
import { TeamProgress } from "./TeamProgress.js"

export const TeamPage = (props: { readonly datasetId: DatasetId }) => {
  const me = useQuery(meQuery).data
  const dataset = useQuery(datasetQuery(props.datasetId))
  const name = dataset.data?.name ?? "…"
  return (
    <main id="main" className="page team-page">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/">Datasets</Link> <span aria-hidden="true">/</span>{" "}
        <Link to={`/dataset/${props.datasetId}/annotation-mode`}>{name}</Link>
      </nav>
      <h1>Team progress</h1>
      {dataset.isError ? <p role="alert">{errorMessage(dataset.error)}</p> : null}
      {me === undefined ? <p>Loading…</p> : !canReview(me.role)
        ? <p role="alert">Only owners and admins can see the team’s progress.</p>
        : (
          <>
            <DatasetTabs datasetId={props.datasetId} current="team" team />
            <p className="muted team-legend">
              Each annotator’s responses to {name}, split by whether the record is completed or still pending. Bars
              are out of the dataset’s records (darker: completed records).
            </p>
            <TeamProgress datasetId={props.datasetId} />
            <p>
              <Link to={`/dataset/${props.datasetId}/annotation-mode?review=1`}>Review the annotators’ responses</Link>
            </p>
          </>
        )}
    </main>
  )
}

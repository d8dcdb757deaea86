/** My progress and the team's, refetched after every write (see `refreshProgress`). */
import { useQuery } from "@tanstack/react-query"
import type { DatasetId } from "../../../../src/domain/Ids.js"
import {
  completedByOthers,
  dataset as datasetQuery,
  me as meQuery,
  myProgress,
  teamProgress
} from "../../data/queries.js"
import { usePendingSource } from "../../data/queue.js"
import { canReview, useMayReview } from "../../data/review.js"
import { Link } from "../../router.js"

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 100))

export const ProgressPanel = (props: { readonly datasetId: DatasetId }) => {
  const mine = useQuery(myProgress(props.datasetId)).data
  const queue = usePendingSource(props.datasetId).count
  // Pending counts the caller's queue, as its tab does (with what it is made of when some is assigned). Records
  // others completed (the task distribution's min_submitted) are counted apart, by a search of their own; records
  // assigned to others or held by them are no figure of the caller's.
  const byOthers = useQuery(completedByOthers(props.datasetId)).data
  const team = useQuery(teamProgress(props.datasetId)).data
  const me = useQuery(meQuery).data
  const role = me?.role
  const workspaceId = useQuery(datasetQuery(props.datasetId)).data?.workspace_id
  // Owners, admins and the workspace's reviewers see the agreement; only owners and admins the team's progress.
  const reviews = useMayReview(me, workspaceId)
  return (
    <section className="panel progress-panel" aria-labelledby="progress-title">
      <h2 id="progress-title">Progress</h2>
      {mine === undefined ? null : (
        <div data-testid="my-progress">
          <h3 id="my-progress-label">My progress</h3>
          <progress aria-labelledby="my-progress-label" max={Math.max(1, mine.total)} value={mine.submitted} />
          <p>
            <strong className="my-submitted">{mine.submitted} of {mine.total}</strong> submitted
          </p>
          <ul className="counts">
            <li>
              Pending {queue === undefined ? "…" : `${queue.total}${queue.relation === "gte" ? "+" : ""}`}
              {queue === undefined || queue.assigned === 0 ? null : (
                <span className="muted queue-parts">
                  {" "}({queue.assigned} assigned to you{queue.pool === 0 ? "" : `, ${queue.pool} from the pool`})
                </span>
              )}
            </li>
            {queue?.quotaLeft == null ? null : <li>Pool records you may still take {queue.quotaLeft}</li>}
            {byOthers === undefined || byOthers.total === 0
              ? null
              : <li>Completed by others {byOthers.total}{byOthers.relation === "gte" ? "+" : ""}</li>}
            <li>Draft {mine.draft}</li>
            <li>Submitted {mine.submitted}</li>
            <li>Discarded {mine.discarded}</li>
          </ul>
        </div>
      )}
      {team === undefined ? null : (
        <div data-testid="team-progress">
          <h3 id="team-progress-label">Team progress</h3>
          <progress aria-labelledby="team-progress-label" max={Math.max(1, team.total)} value={team.completed} />
          <p>
            {team.completed} of {team.total} records completed ({percent(team.completed, team.total)}%)
          </p>
          {canReview(role) ? <Link to={`/dataset/${props.datasetId}/team`}>Progress by annotator</Link> : null}
          {reviews ? <> {canReview(role) ? "· " : null}<Link to={`/dataset/${props.datasetId}/agreement`}>Agreement</Link></> : null}
          {canReview(role) ? <> · <Link to={`/dataset/${props.datasetId}/assignments`}>Assignments</Link></> : null}
        </div>
      )}
    </section>
  )
}

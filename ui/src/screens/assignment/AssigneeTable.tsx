/**
 * Each member's share of the dataset's work, from the summary: records assigned, how many of those they have done
 * (with a bar), everything they have done, pool records reserved for them, records waiting in their queue, and their
 * quota of pool records, which the lead sets here (empty: the dataset's default).
 */
import { type FormEvent, useState } from "react"
import type { AssigneeSummary, AssignmentSummary } from "../../../../src/domain/Assignment.js"
import type { DatasetId } from "../../../../src/domain/Ids.js"
import { setQuota } from "../../data/assignment.js"
import { errorMessage } from "../../data/client.js"
import "../team/team.css"

const MAX_QUOTA = 10_000_000

/** The user's own quota (null: the dataset's default applies to them). */
export const ownQuota = (user: AssigneeSummary, _defaultQuota: number | null): number | null => user.own_quota

const QuotaCell = (props: {
  readonly datasetId: DatasetId
  readonly user: AssigneeSummary
  readonly defaultQuota: number | null
}) => {
  const { datasetId, defaultQuota, user } = props
  const own = ownQuota(user, defaultQuota)
  const [text, setText] = useState(own === null ? "" : String(own))
  const [state, setState] = useState<{ readonly busy: boolean; readonly error?: string }>({ busy: false })
  const inputId = `quota-${user.user_id}`
  const save = async (event: FormEvent) => {
    event.preventDefault()
    const trimmed = text.trim()
    const quota = trimmed === "" ? null : Number(trimmed)
    if (quota !== null && (!Number.isInteger(quota) || quota < 1 || quota > MAX_QUOTA)) {
      setState({ busy: false, error: "A whole number from 1, or empty." })
      return
    }
    setState({ busy: true })
    try {
      await setQuota(datasetId, { user_id: user.user_id, quota })
      setState({ busy: false })
    } catch (error) {
      setState({ busy: false, error: errorMessage(error) })
    }
  }
  return (
    <td data-label="Quota">
      <form noValidate className="assignment-quota" onSubmit={(e) => void save(e)}>
        <label htmlFor={inputId} className="visually-hidden">Quota for {user.username}</label>
        <input
          id={inputId}
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_QUOTA}
          step={1}
          value={text}
          placeholder={defaultQuota === null ? "none" : String(defaultQuota)}
          aria-describedby={state.error === undefined ? undefined : `${inputId}-error`}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit" disabled={state.busy} aria-label={`Set the quota for ${user.username}`}>Set</button>
      </form>
      {state.error === undefined ? null : <span id={`${inputId}-error`} className="error" role="alert">{state.error}</span>}
    </td>
  )
}

export const AssigneeTable = (props: { readonly datasetId: DatasetId; readonly summary: AssignmentSummary }) => {
  const { summary } = props
  const defaultQuota = summary.settings.quota
  const users = [...summary.users].sort((a, b) => a.username.localeCompare(b.username))
  return (
    <>
      <p className="muted assignment-status">
        {summary.assigned_records} of {summary.records} record{summary.records === 1 ? "" : "s"} assigned to someone.
        {" "}Quotas cap the records each annotator takes from the pool (records assigned to nobody); empty takes the
        dataset’s default ({defaultQuota === null ? "no limit" : defaultQuota}).
      </p>
      {users.length === 0 ? <p>The dataset’s workspace has no members yet.</p> : (
        <div className="assignment-scroll">
          <table className="team-table assignment-table">
            <caption className="visually-hidden">
              Each member’s assigned records, records done, reserved and waiting, and quota
            </caption>
            <thead>
              <tr>
                <th scope="col">Annotator</th>
                <th scope="col">Assigned</th>
                <th scope="col">Assigned done</th>
                <th scope="col">All done</th>
                <th scope="col">Reserved</th>
                <th scope="col">Waiting</th>
                <th scope="col">Quota</th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <tr key={user.user_id} data-user={user.username}>
                  <th scope="row">
                    {user.username}
                    {user.member ? null : <span className="muted"> (not a member)</span>}
                  </th>
                  <td data-label="Assigned"><span className="team-count">{user.assigned}</span></td>
                  <td data-label="Assigned done">
                    <span className="team-count">{user.assigned_done}</span>
                    <span className="team-bar" aria-hidden="true">
                      <span
                        className="team-bar-completed team-submitted"
                        style={{ width: `${(user.assigned_done / Math.max(1, user.assigned)) * 100}%` }}
                      />
                    </span>
                  </td>
                  <td data-label="All done"><span className="team-count">{user.done}</span></td>
                  <td data-label="Reserved"><span className="team-count">{user.leased}</span></td>
                  <td data-label="Waiting"><span className="team-count">{user.pending}</span></td>
                  <QuotaCell
                    key={`${user.user_id}:${ownQuota(user, defaultQuota)}`}
                    datasetId={props.datasetId}
                    user={user}
                    defaultQuota={defaultQuota}
                  />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  )
}

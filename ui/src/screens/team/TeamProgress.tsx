/**
 * Per-annotator progress (`GET /datasets/{id}/users/progress`, owners and admins): submitted, draft and discarded
 * responses, each split by the record's status (completed / pending), with a bar against the dataset's records;
 * sortable by any count. Annotators are refused by the server (403), which the table says. Where records are
 * assigned, each annotator's assigned records and how many of those they have done come beside the counts.
 */
import { useQuery } from "@tanstack/react-query"
import { useState } from "react"
import type { DatasetId } from "../../../../src/domain/Ids.js"
import type { UserProgress } from "../../../../src/domain/Progress.js"
import { assignmentSummary } from "../../data/assignment.js"
import { errorMessage } from "../../data/client.js"
import { teamProgress } from "../../data/queries.js"
import { isForbidden, usersProgress } from "../../data/review.js"
import "./team.css"

const COUNTS = ["submitted", "draft", "discarded"] as const
type Count = (typeof COUNTS)[number]
type SortKey = "username" | Count
const TITLES: Readonly<Record<Count, string>> = { submitted: "Submitted", draft: "Draft", discarded: "Discarded" }

const countOf = (user: UserProgress, count: Count) => user.completed[count] + user.pending[count]

export const sortUsers = (
  users: ReadonlyArray<UserProgress>,
  key: SortKey,
  direction: "ascending" | "descending"
): ReadonlyArray<UserProgress> => {
  const sign = direction === "ascending" ? 1 : -1
  return [...users].sort((a, b) => {
    const byKey = key === "username" ? a.username.localeCompare(b.username) : countOf(a, key) - countOf(b, key)
    return sign * byKey || a.username.localeCompare(b.username)
  })
}

const Cell = (props: { readonly user: UserProgress; readonly count: Count; readonly records: number | undefined }) => {
  const { count, records, user } = props
  const completed = user.completed[count]
  const pending = user.pending[count]
  const whole = Math.max(1, records ?? completed + pending)
  return (
    <td>
      <span className="team-count">{completed + pending}</span>
      <span className="team-bar" aria-hidden="true">
        <span className={`team-bar-completed team-${count}`} style={{ width: `${(completed / whole) * 100}%` }} />
        <span className={`team-bar-pending team-${count}`} style={{ width: `${(pending / whole) * 100}%` }} />
      </span>
      <span className="team-split muted">{completed} completed · {pending} pending</span>
    </td>
  )
}

/** One user's assigned records, and how many of those they have submitted or discarded. */
export interface AssignedShare {
  readonly assigned: number
  readonly assigned_done: number
}

const AssignedCell = (props: { readonly share: AssignedShare | undefined }) => {
  const { assigned, assigned_done: done } = props.share ?? { assigned: 0, assigned_done: 0 }
  return (
    <td>
      <span className="team-count">{assigned}</span>
      <span className="team-bar" aria-hidden="true">
        <span className="team-bar-completed team-submitted" style={{ width: `${(done / Math.max(1, assigned)) * 100}%` }} />
      </span>
      <span className="team-split muted">{done} done · {assigned - done} to do</span>
    </td>
  )
}

export const TeamProgressTable = (props: {
  readonly users: ReadonlyArray<UserProgress>
  /** the dataset's records, the bars' whole */
  readonly records?: number | undefined
  /** Assigned records by username, where the dataset has any: adds an Assigned column. */
  readonly assigned?: ReadonlyMap<string, AssignedShare> | undefined
}) => {
  const [sort, setSort] = useState<{ readonly key: SortKey; readonly direction: "ascending" | "descending" }>({
    key: "submitted",
    direction: "descending"
  })
  const sortBy = (key: SortKey) =>
    setSort((s) =>
      s.key === key
        ? { key, direction: s.direction === "ascending" ? "descending" : "ascending" }
        : { key, direction: key === "username" ? "ascending" : "descending" }
    )
  const header = (key: SortKey, title: string) => (
    <th key={key} scope="col" aria-sort={sort.key === key ? sort.direction : "none"}>
      <button type="button" className="team-sort" onClick={() => sortBy(key)}>
        {title}
        <span aria-hidden="true">{sort.key === key ? (sort.direction === "ascending" ? " ▲" : " ▼") : ""}</span>
      </button>
    </th>
  )
  if (props.users.length === 0) return <p>No one has answered a record of this dataset yet.</p>
  return (
    <div className="team-scroll">
      <table className="team-table">
        <caption className="visually-hidden">
          Responses per annotator, by the record’s status{props.records === undefined ? "" : `, of ${props.records} records`}
        </caption>
        <thead>
          <tr>
            {header("username", "Annotator")}
            {COUNTS.map((count) => header(count, TITLES[count]))}
            {props.assigned === undefined ? null : <th scope="col">Assigned</th>}
          </tr>
        </thead>
        <tbody>
          {sortUsers(props.users, sort.key, sort.direction).map((user) => (
            <tr key={user.username}>
              <th scope="row">{user.username}</th>
              {COUNTS.map((count) => <Cell key={count} user={user} count={count} records={props.records} />)}
              {props.assigned === undefined ? null : <AssignedCell share={props.assigned.get(user.username)} />}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** The table with its data, or why there is none. */
export const TeamProgress = (props: { readonly datasetId: DatasetId }) => {
  const users = useQuery(usersProgress(props.datasetId))
  const records = useQuery(teamProgress(props.datasetId)).data?.total
  // Read once, as the team's counts are; the assignments page is the one that follows it every few seconds.
  const summary = useQuery({ ...assignmentSummary(props.datasetId), refetchInterval: false }).data
  const assigned = summary === undefined || summary.assigned_records === 0
    ? undefined
    : new Map(summary.users.map((u) => [u.username, u]))
  if (users.isPending) return <p>Loading the team’s progress…</p>
  if (users.isError) {
    return (
      <p role="alert">
        {isForbidden(users.error) ? "Only owners and admins can see the team’s progress." : errorMessage(users.error)}
      </p>
    )
  }
  return <TeamProgressTable users={users.data} records={records} assigned={assigned} />
}

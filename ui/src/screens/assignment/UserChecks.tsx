/** A group of checkboxes over the workspace's members, for choosing who records go to. */
import type { AssigneeSummary } from "../../../../src/domain/Assignment.js"
import type { UserId } from "../../../../src/domain/Ids.js"

export const UserChecks = (props: {
  readonly legend: string
  /** Prefixes the inputs' ids, unique on the page. */
  readonly idPrefix: string
  readonly users: ReadonlyArray<AssigneeSummary>
  readonly chosen: ReadonlySet<UserId>
  readonly onChange: (next: ReadonlySet<UserId>) => void
}) => {
  const toggle = (id: UserId, on: boolean) => {
    const next = new Set(props.chosen)
    if (on) next.add(id)
    else next.delete(id)
    props.onChange(next)
  }
  return (
    <fieldset className="assignment-users">
      <legend>{props.legend}</legend>
      {props.users.length === 0 ? <p className="muted">No one else is a member of the workspace.</p> : (
        <ul>
          {props.users.map((user) => (
            <li key={user.user_id}>
              <input
                id={`${props.idPrefix}-${user.user_id}`}
                type="checkbox"
                checked={props.chosen.has(user.user_id)}
                onChange={(e) => toggle(user.user_id, e.target.checked)}
              />
              <label htmlFor={`${props.idPrefix}-${user.user_id}`}>{user.username}</label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  )
}

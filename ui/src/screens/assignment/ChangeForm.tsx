/**
 * Taking work back: removing a user's assignments (or everybody's), and moving a user's unfinished assignments to
 * other users, one of them per record (what they have submitted or discarded stays theirs).
 */
import { type FormEvent, useState } from "react"
import type { AssigneeSummary } from "../../../../src/domain/Assignment.js"
import type { DatasetId, UserId } from "../../../../src/domain/Ids.js"
import { moveAssignments, unassignRecords } from "../../data/assignment.js"
import { errorMessage } from "../../data/client.js"
import { UserChecks } from "./UserChecks.js"

interface Outcome {
  readonly busy: boolean
  readonly done?: string
  readonly error?: string
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

const EVERYBODY = "*"

const RemoveForm = (props: { readonly datasetId: DatasetId; readonly users: ReadonlyArray<AssigneeSummary> }) => {
  const [whose, setWhose] = useState("")
  const [state, setState] = useState<Outcome>({ busy: false })
  // Everybody's assignments are a lead's whole plan: the first press asks, the second removes.
  const [confirming, setConfirming] = useState(false)
  const everyAssignment = props.users.reduce((sum, u) => sum + u.assigned, 0)
  const remove = async (event: FormEvent) => {
    event.preventDefault()
    const user = props.users.find((u) => u.user_id === whose)
    if (whose !== EVERYBODY && user === undefined) return setState({ busy: false, error: "Choose whose assignments go." })
    if (whose === EVERYBODY && !confirming) {
      setConfirming(true)
      return setState({ busy: false })
    }
    setConfirming(false)
    setState({ busy: true })
    try {
      const result = await unassignRecords(props.datasetId, user === undefined ? {} : { users: [user.user_id] })
      setState({
        busy: false,
        done: `${plural(result.removed, "assignment")} removed${user === undefined ? "" : ` from ${user.username}`}.`
      })
    } catch (error) {
      setState({ busy: false, error: errorMessage(error) })
    }
  }
  return (
    <form noValidate className="assignment-form" aria-labelledby="assignment-remove" onSubmit={(e) => void remove(e)}>
      <h3 id="assignment-remove">Remove assignments</h3>
      <div className="assignment-input">
        <label htmlFor="remove-whose">Whose assignments</label>
        <select id="remove-whose" value={whose} onChange={(e) => {
          setWhose(e.target.value)
          setConfirming(false)
        }}>
          <option value="">Choose…</option>
          <option value={EVERYBODY}>Everybody’s</option>
          {props.users.map((u) => <option key={u.user_id} value={u.user_id}>{u.username} ({u.assigned})</option>)}
        </select>
        <span className="muted assignment-note">Their answers stay; the records go back to the pool.</span>
      </div>
      <div className="assignment-save">
        {confirming
          ? (
            <>
              <button type="submit" className="danger" disabled={state.busy} autoFocus>
                Yes, remove all {plural(everyAssignment, "assignment")}
              </button>
              <button type="button" className="secondary" onClick={() => setConfirming(false)}>Cancel</button>
            </>
          )
          : <button type="submit" disabled={state.busy}>Remove</button>}
        <span role="status" className="assignment-result">{state.done ?? ""}</span>
      </div>
      {state.error === undefined ? null : <p className="error" role="alert">{state.error}</p>}
    </form>
  )
}

const MoveForm = (props: { readonly datasetId: DatasetId; readonly users: ReadonlyArray<AssigneeSummary> }) => {
  const [from, setFrom] = useState("")
  const [to, setTo] = useState<ReadonlySet<UserId>>(new Set())
  const [state, setState] = useState<Outcome>({ busy: false })
  const source = props.users.find((u) => u.user_id === from)
  const targets = props.users.filter((u) => u.user_id !== from)
  const move = async (event: FormEvent) => {
    event.preventDefault()
    if (source === undefined) return setState({ busy: false, error: "Choose whose assignments move." })
    const chosen = targets.filter((u) => to.has(u.user_id)).map((u) => u.user_id)
    const [first, ...rest] = chosen
    if (first === undefined) return setState({ busy: false, error: "Choose at least one annotator to move them to." })
    setState({ busy: true })
    try {
      const result = await moveAssignments(props.datasetId, { from: source.user_id, to: [first, ...rest] })
      setState({
        busy: false,
        done: `${plural(result.removed, "record")} moved from ${source.username}, ${plural(result.assigned, "assignment")} made.`
      })
    } catch (error) {
      setState({ busy: false, error: errorMessage(error) })
    }
  }
  return (
    <form noValidate className="assignment-form" aria-labelledby="assignment-move" onSubmit={(e) => void move(e)}>
      <h3 id="assignment-move">Move unfinished assignments</h3>
      <div className="assignment-input">
        <label htmlFor="move-from">From</label>
        <select id="move-from" value={from} onChange={(e) => setFrom(e.target.value)}>
          <option value="">Choose…</option>
          {props.users.map((u) => (
            <option key={u.user_id} value={u.user_id}>{u.username} ({u.assigned - u.assigned_done} unfinished)</option>
          ))}
        </select>
      </div>
      <UserChecks legend="To" idPrefix="move-to" users={targets} chosen={to} onChange={setTo} />
      <p className="muted assignment-note">
        Each record goes to one of them, the least loaded first; what was already submitted or discarded stays.
      </p>
      <div className="assignment-save">
        <button type="submit" disabled={state.busy}>Move</button>
        <span role="status" className="assignment-result">{state.done ?? ""}</span>
      </div>
      {state.error === undefined ? null : <p className="error" role="alert">{state.error}</p>}
    </form>
  )
}

export const ChangeForm = (props: { readonly datasetId: DatasetId; readonly users: ReadonlyArray<AssigneeSummary> }) => {
  const users = [...props.users].sort((a, b) => a.username.localeCompare(b.username))
  return (
    <div className="assignment-change">
      <RemoveForm datasetId={props.datasetId} users={users} />
      <MoveForm datasetId={props.datasetId} users={users} />
    </div>
  )
}

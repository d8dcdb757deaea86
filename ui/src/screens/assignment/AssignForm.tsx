/**
 * Assigning records: which records (every record, those the annotation view's filters in the URL match, or ids
 * pasted), to whom (the workspace's members), how many of them per record, and optionally a priority for the same
 * records (which "Set priority only" sets without assigning).
 */
import { useQuery } from "@tanstack/react-query"
import { Either } from "effect"
import { type FormEvent, useMemo, useState } from "react"
import type { AssignmentSummary, RecordSelection } from "../../../../src/domain/Assignment.js"
import type { DatasetId, UserId } from "../../../../src/domain/Ids.js"
import { assignRecords, matchingRecords, prioritize } from "../../data/assignment.js"
import { errorMessage } from "../../data/client.js"
import { useLocation } from "../../router.js"
import { describeFilters, filterQuery, type RecordsChoice, selectionOf } from "./selection.js"
import { UserChecks } from "./UserChecks.js"

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

const MAX_PRIORITY = 1_000_000

const RecordsChoiceField = (props: {
  readonly datasetId: DatasetId
  readonly records: number
  readonly choice: RecordsChoice
  readonly onChoice: (choice: RecordsChoice) => void
  readonly idsText: string
  readonly onIdsText: (text: string) => void
}) => {
  const { search } = useLocation()
  const filters = useMemo(() => filterQuery(search), [search])
  const described = describeFilters(search)
  const matching = useQuery({ ...matchingRecords(props.datasetId, filters ?? {}), enabled: filters !== undefined })
  const count = matching.data === undefined ? "…" : `${matching.data.total}${matching.data.relation === "gte" ? "+" : ""}`
  const radio = (value: RecordsChoice, label: string, disabled = false) => (
    <div className="assignment-choice">
      <input
        id={`assign-records-${value}`}
        type="radio"
        name="assign-records"
        value={value}
        checked={props.choice === value}
        disabled={disabled}
        onChange={() => props.onChoice(value)}
      />
      <label htmlFor={`assign-records-${value}`}>{label}</label>
    </div>
  )
  return (
    <fieldset className="assignment-records">
      <legend>Records</legend>
      {radio("all", `Every record (${props.records})`)}
      {filters === undefined
        ? (
          <>
            {radio("filtered", "Records matching the annotation view’s filters", true)}
            <p className="muted assignment-hint">
              No filters apply: filter the records in the annotation view, then follow its Assign… link.
            </p>
          </>
        )
        : (
          <>
            {radio("filtered", `Records matching the annotation view’s filters (${count})`)}
            <p className="muted assignment-hint">{described.join("; ")}</p>
          </>
        )}
      {radio("ids", "These records (ids)")}
      {props.choice === "ids"
        ? (
          <div className="assignment-input">
            <label htmlFor="assign-ids">Record ids, one per line</label>
            <textarea id="assign-ids" rows={4} value={props.idsText} onChange={(e) => props.onIdsText(e.target.value)} />
          </div>
        )
        : null}
    </fieldset>
  )
}

export const AssignForm = (props: {
  readonly datasetId: DatasetId
  readonly summary: AssignmentSummary
  readonly labelledBy: string
}) => {
  const { datasetId, summary } = props
  const { search } = useLocation()
  // The bulk view's "Assign selected…" brings its records as `ids`; the annotation view's "Assign…", its filters.
  const [choice, setChoice] = useState<RecordsChoice>(() =>
    search.get("ids") !== null ? "ids" : filterQuery(search) === undefined ? "all" : "filtered")
  const [idsText, setIdsText] = useState(() => (search.get("ids") ?? "").split(",").filter((id) => id !== "").join("\n"))
  const [chosen, setChosen] = useState<ReadonlySet<UserId>>(new Set())
  const [perRecord, setPerRecord] = useState("")
  const [priority, setPriority] = useState("")
  const [state, setState] = useState<{ readonly busy: boolean; readonly done?: string; readonly error?: string }>({
    busy: false
  })
  const users = [...summary.users].sort((a, b) => a.username.localeCompare(b.username))

  const selection = (): RecordSelection | undefined => {
    const picked = selectionOf(choice, filterQuery(search), idsText)
    if (Either.isLeft(picked)) {
      setState({ busy: false, error: picked.left })
      return undefined
    }
    return picked.right
  }
  const priorityValue = (): number | null | undefined => {
    const trimmed = priority.trim()
    if (trimmed === "") return null
    const value = Number(trimmed)
    if (!Number.isInteger(value) || Math.abs(value) > MAX_PRIORITY) {
      setState({ busy: false, error: "The priority is a whole number between −1 000 000 and 1 000 000." })
      return undefined
    }
    return value
  }

  const assign = async (event: FormEvent) => {
    event.preventDefault()
    const picked = selection()
    if (picked === undefined) return
    if (chosen.size === 0) return setState({ busy: false, error: "Choose at least one annotator." })
    const trimmed = perRecord.trim()
    const per = trimmed === "" ? chosen.size : Number(trimmed)
    if (!Number.isInteger(per) || per < 1 || per > chosen.size) {
      return setState({ busy: false, error: `Annotators per record: a whole number from 1 to ${chosen.size}.` })
    }
    const rank = priorityValue()
    if (rank === undefined) return
    setState({ busy: true })
    try {
      const result = await assignRecords(datasetId, { ...picked, users: [...chosen] as [UserId, ...Array<UserId>], per_record: per })
      let done = `${plural(result.records, "record")}, ${plural(result.assigned, "assignment")}.`
      if (rank !== null) {
        const ranked = await prioritize(datasetId, { ...picked, priority: rank })
        done += ` Priority ${rank} on ${plural(ranked.records, "record")}.`
      }
      setState({ busy: false, done })
    } catch (error) {
      setState({ busy: false, error: errorMessage(error) })
    }
  }

  const setPriorityOnly = async () => {
    const picked = selection()
    if (picked === undefined) return
    const rank = priorityValue()
    if (rank === undefined) return
    if (rank === null) return setState({ busy: false, error: "Give a priority to set." })
    setState({ busy: true })
    try {
      const ranked = await prioritize(datasetId, { ...picked, priority: rank })
      setState({ busy: false, done: `Priority ${rank} on ${plural(ranked.records, "record")}.` })
    } catch (error) {
      setState({ busy: false, error: errorMessage(error) })
    }
  }

  return (
    <form noValidate className="assignment-form" aria-labelledby={props.labelledBy} onSubmit={(e) => void assign(e)}>
      <RecordsChoiceField
        datasetId={datasetId}
        records={summary.records}
        choice={choice}
        onChoice={setChoice}
        idsText={idsText}
        onIdsText={setIdsText}
      />
      <UserChecks legend="Assign to" idPrefix="assign-to" users={users} chosen={chosen} onChange={setChosen} />
      <div className="assignment-numbers">
        <div className="assignment-input">
          <label htmlFor="assign-per-record">Annotators per record</label>
          <input
            id="assign-per-record"
            type="number"
            inputMode="numeric"
            min={1}
            max={Math.max(1, chosen.size)}
            step={1}
            value={perRecord}
            placeholder={chosen.size === 0 ? "all chosen" : `all ${chosen.size} chosen`}
            aria-describedby="assign-per-record-hint"
            onChange={(e) => setPerRecord(e.target.value)}
          />
          <span id="assign-per-record-hint" className="muted assignment-note">
            Fewer than the chosen annotators share the records: each goes to the least loaded.
          </span>
        </div>
        <div className="assignment-input">
          <label htmlFor="assign-priority">Priority (optional)</label>
          <input
            id="assign-priority"
            type="number"
            inputMode="numeric"
            step={1}
            min={-MAX_PRIORITY}
            max={MAX_PRIORITY}
            value={priority}
            aria-describedby="assign-priority-hint"
            onChange={(e) => setPriority(e.target.value)}
          />
          <span id="assign-priority-hint" className="muted assignment-note">
            Higher comes first in every queue; every record starts at 0.
          </span>
        </div>
      </div>
      <div className="assignment-save">
        <button type="submit" className="primary" disabled={state.busy}>Assign</button>
        <button type="button" disabled={state.busy} onClick={() => void setPriorityOnly()}>Set priority only</button>
        <span role="status" className="assignment-result">{state.done ?? ""}</span>
      </div>
      {state.error === undefined ? null : <p className="error" role="alert">{state.error}</p>}
    </form>
  )
}

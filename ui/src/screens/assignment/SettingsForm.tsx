/**
 * The dataset's queue settings: assigned records first or only, the order, how long a pool record stays reserved,
 * blind mode and the default quota. `min_submitted` belongs to the dataset's task distribution and is shown, not set,
 * here. The form starts from the settings as loaded and keeps the lead's edits while the summary refreshes.
 */
import { type FormEvent, useState } from "react"
import type { AssignedMode, QueueOrder, QueueSettings } from "../../../../src/domain/Assignment.js"
import type { DatasetId } from "../../../../src/domain/Ids.js"
import { updateQueueSettings } from "../../data/assignment.js"
import { errorMessage } from "../../data/client.js"
import { Link } from "../../router.js"

const MAX_LEASE = 60 * 24 * 30
const MAX_QUOTA = 10_000_000

interface Draft {
  readonly assigned: AssignedMode
  readonly order: QueueOrder
  readonly lease: string
  readonly blind: boolean
  readonly quota: string
}

const draftOf = (settings: QueueSettings): Draft => ({
  assigned: settings.assigned,
  order: settings.order,
  lease: String(settings.lease_minutes),
  blind: settings.blind,
  quota: settings.quota === null ? "" : String(settings.quota)
})

const wholeIn = (text: string, min: number, max: number): number | undefined => {
  const value = Number(text.trim())
  return text.trim() !== "" && Number.isInteger(value) && value >= min && value <= max ? value : undefined
}

export const SettingsForm = (props: {
  readonly datasetId: DatasetId
  readonly settings: QueueSettings
  readonly labelledBy: string
}) => {
  const [draft, setDraft] = useState<Draft>(() => draftOf(props.settings))
  const [state, setState] = useState<{ readonly busy: boolean; readonly done?: string; readonly errors?: Partial<Record<"lease" | "quota" | "form", string>> }>({ busy: false })
  const edit = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }))

  const save = async (event: FormEvent) => {
    event.preventDefault()
    const lease = wholeIn(draft.lease, 1, MAX_LEASE)
    const quota = draft.quota.trim() === "" ? null : wholeIn(draft.quota, 1, MAX_QUOTA)
    const errors = {
      ...(lease === undefined ? { lease: `A whole number of minutes from 1 to ${MAX_LEASE} (30 days).` } : {}),
      ...(quota === undefined ? { quota: "A whole number from 1, or empty for no limit." } : {})
    }
    if (lease === undefined || quota === undefined) return setState({ busy: false, errors })
    setState({ busy: true })
    try {
      const saved = await updateQueueSettings(props.datasetId, {
        assigned: draft.assigned,
        order: draft.order,
        lease_minutes: lease,
        blind: draft.blind,
        quota
      })
      setDraft(draftOf(saved))
      setState({ busy: false, done: "Saved." })
    } catch (error) {
      setState({ busy: false, errors: { form: errorMessage(error) } })
    }
  }

  const radio = <A extends string>(name: string, value: A, current: A, label: string, onPick: (value: A) => void) => (
    <div className="assignment-choice">
      <input
        id={`${name}-${value}`}
        type="radio"
        name={name}
        value={value}
        checked={current === value}
        onChange={() => onPick(value)}
      />
      <label htmlFor={`${name}-${value}`}>{label}</label>
    </div>
  )
  const errors = state.errors ?? {}
  return (
    <form noValidate className="assignment-form" aria-labelledby={props.labelledBy} onSubmit={(e) => void save(e)}>
      <fieldset className="assignment-records">
        <legend>Each annotator’s queue holds</legend>
        {radio("queue-assigned", "first", draft.assigned, "Their assigned records first, then records assigned to nobody", (assigned) => edit({ assigned }))}
        {radio("queue-assigned", "only", draft.assigned, "Their assigned records only", (assigned) => edit({ assigned }))}
      </fieldset>
      <fieldset className="assignment-records">
        <legend>Order</legend>
        {radio("queue-order", "inserted", draft.order, "In the order the records were added", (order) => edit({ order }))}
        {radio("queue-order", "shuffled", draft.order, "Shuffled, differently for each annotator", (order) => edit({ order }))}
      </fieldset>
      <div className="assignment-numbers">
        <div className="assignment-input">
          <label htmlFor="queue-lease">Reservation (minutes)</label>
          <input
            id="queue-lease"
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_LEASE}
            step={1}
            value={draft.lease}
            aria-invalid={errors.lease === undefined ? undefined : true}
            aria-describedby={errors.lease === undefined ? "queue-lease-hint" : "queue-lease-hint queue-lease-error"}
            onChange={(e) => edit({ lease: e.target.value })}
          />
          <span id="queue-lease-hint" className="muted assignment-note">
            How long a record from the pool stays reserved for the annotator it was handed to.
          </span>
          {errors.lease === undefined ? null : <span id="queue-lease-error" className="error">{errors.lease}</span>}
        </div>
        <div className="assignment-input">
          <label htmlFor="queue-quota">Default quota</label>
          <input
            id="queue-quota"
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_QUOTA}
            step={1}
            value={draft.quota}
            placeholder="no limit"
            aria-invalid={errors.quota === undefined ? undefined : true}
            aria-describedby={errors.quota === undefined ? "queue-quota-hint" : "queue-quota-hint queue-quota-error"}
            onChange={(e) => edit({ quota: e.target.value })}
          />
          <span id="queue-quota-hint" className="muted assignment-note">
            The most records one annotator takes from the pool; empty for no limit.
          </span>
          {errors.quota === undefined ? null : <span id="queue-quota-error" className="error">{errors.quota}</span>}
        </div>
      </div>
      <div className="assignment-check">
        <input id="queue-blind" type="checkbox" checked={draft.blind} onChange={(e) => edit({ blind: e.target.checked })} />
        <label htmlFor="queue-blind">Blind: annotators see no suggestions on a record until they have answered it</label>
      </div>
      <p className="assignment-distribution">
        Answers per record from the pool: <strong>{props.settings.min_submitted}</strong>.{" "}
        <span className="muted">
          That is the dataset’s task distribution, set in its{" "}
          <Link to={`/dataset/${props.datasetId}/settings`}>settings</Link>.
        </span>
      </p>
      <div className="assignment-save">
        <button type="submit" className="primary" disabled={state.busy}>Save the queue settings</button>
        <span role="status" className="assignment-result">{state.done ?? ""}</span>
      </div>
      {errors.form === undefined ? null : <p className="error" role="alert">{errors.form}</p>}
    </form>
  )
}

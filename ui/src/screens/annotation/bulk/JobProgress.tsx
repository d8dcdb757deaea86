/** The apply job as it runs: a progress bar (done of total), the failures with the first reasons, and its end. */
import type { Job } from "../../../../../src/domain/Job.js"

interface Props {
  readonly job: Job | undefined
  readonly error: string | undefined
  readonly running: boolean
  readonly onDismiss: () => void
}

export const JobProgress = ({ error, job, onDismiss, running }: Props) => {
  const progress = job?.progress
  const done = progress?.done ?? 0
  const total = progress?.total ?? null
  const ended = !running
  return (
    <section className="panel bulk-job" aria-labelledby="bulk-job-title">
      {/* Only the state is announced, not every poll's count. */}
      <h3 id="bulk-job-title" aria-live="polite">
        {error !== undefined
          ? "Applying the answer failed"
          : job === undefined
          ? "Starting…"
          : job.status === "finished"
          ? "Applied"
          : ended
          ? `The job ended: ${job.status}`
          : "Applying to every selected record…"}
      </h3>
      {job === undefined ? null : (
        <p className="bulk-job-bar">
          <progress
            aria-labelledby="bulk-job-title"
            max={total ?? undefined}
            value={total === null ? undefined : done}
          />
          <span>{total === null ? `${done} done` : `${done} of ${total}`}</span>
        </p>
      )}
      {progress === undefined || progress.failed === 0 ? null : (
        <div className="bulk-job-failures">
          <p className="error">{progress.failed} not saved{progress.errors.length < progress.failed ? "; the first reasons:" : ":"}</p>
          <ul>
            {progress.errors.map((e) => <li key={e.id}><code>{e.id}</code>: {e.detail}</li>)}
          </ul>
        </div>
      )}
      {error === undefined ? null : <p className="error" role="alert">{error}</p>}
      {ended ? <button type="button" className="secondary" onClick={onDismiss}>Close</button> : null}
    </section>
  )
}

/** General: the dataset's name, its guidelines (markdown, with a Write / Preview switch) and `min_submitted`. */
import { type FormEvent, useState } from "react"
import type { Dataset, DatasetUpdate } from "../../../../src/domain/Dataset.js"
import { Markdown } from "../../components/Markdown.js"
import { otherProblems, problemsAt } from "../../data/settings.js"
import { ProblemText, SaveRow, TextInput, useSave } from "./form.js"

export const GeneralSection = (props: {
  readonly dataset: Dataset
  readonly save: (update: DatasetUpdate) => Promise<unknown>
}) => {
  const { dataset } = props
  const [name, setName] = useState(dataset.name)
  const [guidelines, setGuidelines] = useState(dataset.guidelines ?? "")
  const [minSubmitted, setMinSubmitted] = useState(String(dataset.distribution.min_submitted))
  const [preview, setPreview] = useState(false)
  const { state, problems, run, touched } = useSave()

  const min = Number(minSubmitted)
  const minValid = Number.isInteger(min) && min >= 1
  const update: DatasetUpdate = {
    ...(name !== dataset.name ? { name } : {}),
    ...(guidelines !== (dataset.guidelines ?? "") ? { guidelines: guidelines.trim() === "" ? null : guidelines } : {}),
    ...(minValid && min !== dataset.distribution.min_submitted
      ? { distribution: { strategy: "overlap" as const, min_submitted: min } }
      : {})
  }
  const dirty = Object.keys(update).length > 0
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(() => props.save(update))
  }
  const guidelineMessages = problemsAt(problems, "guidelines")
  const minMessages = [
    ...(minValid ? [] : ["Enter a whole number, 1 or more."]),
    ...problemsAt(problems, "distribution")
  ]
  return (
    <form className="settings-form" onSubmit={submit} aria-labelledby="general-heading">
      <h2 id="general-heading">General</h2>
      <TextInput label="Name" value={name} onChange={(v) => { setName(v); touched() }} problems={problems} path="name" />
      <fieldset className="guidelines">
        <legend>Guidelines</legend>
        <div className="segmented" role="group" aria-label="Guidelines view">
          <button type="button" aria-pressed={!preview} onClick={() => setPreview(false)}>Write</button>
          <button type="button" aria-pressed={preview} onClick={() => setPreview(true)}>Preview</button>
        </div>
        {preview ? (
          <div className="guidelines-preview panel" aria-label="Guidelines preview" role="region">
            {guidelines.trim() === "" ? <p className="muted">No guidelines.</p> : <Markdown source={guidelines} />}
          </div>
        ) : (
          <>
            <label htmlFor="guidelines-text" className="visually-hidden">Guidelines (markdown)</label>
            <textarea
              id="guidelines-text"
              rows={12}
              value={guidelines}
              aria-describedby="guidelines-hint guidelines-problem"
              aria-invalid={guidelineMessages.length > 0 ? true : undefined}
              onChange={(e) => { setGuidelines(e.target.value); touched() }}
            />
            <span id="guidelines-hint" className="muted settings-hint">Markdown: annotators see it rendered beside the records.</span>
          </>
        )}
        <ProblemText id="guidelines-problem" messages={guidelineMessages} />
      </fieldset>
      <div className="settings-input">
        <label htmlFor="min-submitted">Responses needed to complete a record (min_submitted)</label>
        <input
          id="min-submitted"
          type="number"
          min={1}
          step={1}
          value={minSubmitted}
          aria-invalid={minMessages.length > 0 ? true : undefined}
          aria-describedby={minMessages.length > 0 ? "min-submitted-problem" : undefined}
          onChange={(e) => { setMinSubmitted(e.target.value); touched() }}
        />
        <ProblemText id="min-submitted-problem" messages={minMessages} />
      </div>
      <SaveRow state={state} dirty={dirty && minValid} others={otherProblems(problems, ["name", "guidelines", "distribution"])} />
    </form>
  )
}

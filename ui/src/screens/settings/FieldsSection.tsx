/** Fields: each field's title, and whether a text or chat field renders markdown; name, type and `required` are shown only. */
import { type FormEvent, useState } from "react"
import type { Field, FieldUpdate } from "../../../../src/domain/Field.js"
import { otherProblems } from "../../data/settings.js"
import { SaveRow, TextInput, useSave } from "./form.js"

const FieldForm = (props: { readonly field: Field; readonly save: (update: FieldUpdate) => Promise<unknown> }) => {
  const { field } = props
  const [title, setTitle] = useState(field.title)
  const settings = field.settings
  const markdownSaved = settings.type === "text" || settings.type === "chat" ? settings.use_markdown : undefined
  const [markdown, setMarkdown] = useState(markdownSaved ?? false)
  const { state, problems, run, touched } = useSave()
  const update: FieldUpdate = {
    ...(title !== field.title ? { title } : {}),
    ...((settings.type === "text" || settings.type === "chat") && markdown !== markdownSaved
      ? { settings: { type: settings.type, use_markdown: markdown } }
      : {})
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(() => props.save(update))
  }
  const checkboxId = `field-${field.id}-markdown`
  return (
    <form className="settings-item panel" onSubmit={submit} aria-label={`Field ${field.name}`}>
      <h3>{field.name} <span className="badge">{settings.type}</span></h3>
      <p className="muted">{field.required ? "Required: every record has it." : "Optional."}</p>
      <TextInput label="Title" value={title} onChange={(v) => { setTitle(v); touched() }} problems={problems} path="title" />
      {markdownSaved === undefined ? null : (
        <div className="settings-check">
          <input id={checkboxId} type="checkbox" checked={markdown} onChange={(e) => { setMarkdown(e.target.checked); touched() }} />
          <label htmlFor={checkboxId}>Render as markdown</label>
        </div>
      )}
      <SaveRow state={state} dirty={Object.keys(update).length > 0} others={otherProblems(problems, ["title"])} />
    </form>
  )
}

export const FieldsSection = (props: {
  readonly fields: ReadonlyArray<Field>
  readonly save: (field: Field, update: FieldUpdate) => Promise<unknown>
}) => (
  <section aria-labelledby="fields-heading" className="settings-list">
    <h2 id="fields-heading">Fields</h2>
    {props.fields.length === 0 ? <p className="muted">This dataset has no fields.</p> : null}
    {props.fields.map((field) => (
      <FieldForm key={field.id} field={field} save={(update) => props.save(field, update)} />
    ))}
  </section>
)

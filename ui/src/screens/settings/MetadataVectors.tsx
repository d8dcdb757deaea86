/** Metadata properties (title, visible to annotators) and vector settings (title); names, types and dimensions are shown only. */
import { type FormEvent, useState } from "react"
import type { MetadataProperty, MetadataPropertyUpdate } from "../../../../src/domain/MetadataProperty.js"
import type { VectorSettings, VectorSettingsUpdate } from "../../../../src/domain/VectorSettings.js"
import { otherProblems } from "../../data/settings.js"
import { SaveRow, TextInput, useSave } from "./form.js"

const MetadataForm = (props: {
  readonly property: MetadataProperty
  readonly save: (update: MetadataPropertyUpdate) => Promise<unknown>
}) => {
  const { property } = props
  const [title, setTitle] = useState(property.title)
  const [visible, setVisible] = useState(property.visible_for_annotators)
  const { state, problems, run, touched } = useSave()
  const update: MetadataPropertyUpdate = {
    ...(title !== property.title ? { title } : {}),
    ...(visible !== property.visible_for_annotators ? { visible_for_annotators: visible } : {})
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(() => props.save(update))
  }
  const checkboxId = `metadata-${property.id}-visible`
  return (
    <form className="settings-item panel" onSubmit={submit} aria-label={`Metadata property ${property.name}`}>
      <h3>{property.name} <span className="badge">{property.settings.type}</span></h3>
      <TextInput label="Title" value={title} onChange={(v) => { setTitle(v); touched() }} problems={problems} path="title" />
      <div className="settings-check">
        <input id={checkboxId} type="checkbox" checked={visible} onChange={(e) => { setVisible(e.target.checked); touched() }} />
        <label htmlFor={checkboxId}>Visible to annotators</label>
      </div>
      <SaveRow state={state} dirty={Object.keys(update).length > 0} others={otherProblems(problems, ["title"])} />
    </form>
  )
}

export const MetadataSection = (props: {
  readonly properties: ReadonlyArray<MetadataProperty>
  readonly save: (property: MetadataProperty, update: MetadataPropertyUpdate) => Promise<unknown>
}) => (
  <section aria-labelledby="metadata-heading" className="settings-list">
    <h2 id="metadata-heading">Metadata</h2>
    {props.properties.length === 0 ? <p className="muted">This dataset has no metadata properties.</p> : null}
    {props.properties.map((property) => (
      <MetadataForm key={property.id} property={property} save={(update) => props.save(property, update)} />
    ))}
  </section>
)

const VectorForm = (props: { readonly vector: VectorSettings; readonly save: (update: VectorSettingsUpdate) => Promise<unknown> }) => {
  const { vector } = props
  const [title, setTitle] = useState(vector.title)
  const { state, problems, run, touched } = useSave()
  const update: VectorSettingsUpdate = title !== vector.title ? { title } : {}
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(() => props.save(update))
  }
  return (
    <form className="settings-item panel" onSubmit={submit} aria-label={`Vector ${vector.name}`}>
      <h3>{vector.name} <span className="badge">{vector.dimensions} dimensions</span></h3>
      <TextInput label="Title" value={title} onChange={(v) => { setTitle(v); touched() }} problems={problems} path="title" />
      <SaveRow state={state} dirty={Object.keys(update).length > 0} others={otherProblems(problems, ["title"])} />
    </form>
  )
}

export const VectorsSection = (props: {
  readonly vectors: ReadonlyArray<VectorSettings>
  readonly save: (vector: VectorSettings, update: VectorSettingsUpdate) => Promise<unknown>
}) => (
  <section aria-labelledby="vectors-heading" className="settings-list">
    <h2 id="vectors-heading">Vectors</h2>
    {props.vectors.length === 0 ? <p className="muted">This dataset has no vector settings.</p> : null}
    {props.vectors.map((vector) => <VectorForm key={vector.id} vector={vector} save={(update) => props.save(vector, update)} />)}
  </section>
)

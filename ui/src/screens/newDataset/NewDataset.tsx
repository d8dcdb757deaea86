/**
 * `/new-dataset` (owners and admins): the dataset (name, workspace, guidelines, responses per record), its fields,
 * questions, metadata properties and vector settings; then `POST /datasets`, each item's `POST`, and
 * `PUT /datasets/{id}/publish`, with any failure shown on the item concerned. What was created stays created: the
 * same form sends only what is left ("Continue"), so a dataset a failed step left unpublished is finished here.
 */
import { useQuery } from "@tanstack/react-query"
import { Schema } from "effect"
import { type FormEvent, useState } from "react"
import type { Dataset } from "../../../../src/domain/Dataset.js"
import { WorkspaceId } from "../../../../src/domain/Ids.js"
import { call } from "../../data/client.js"
import { me, myWorkspaces, queryClient } from "../../data/queries.js"
import { canManage, problemsOf } from "../../data/settings.js"
import { Link, navigate } from "../../router.js"
import {
  datasetPayload,
  type Draft,
  draftProblems,
  fieldPayload,
  type FieldType,
  metadataPayload,
  type MetadataType,
  newField,
  newMetadata,
  newQuestion,
  newVector,
  questionPayload,
  type QuestionType,
  vectorPayload
} from "./draft.js"
import { Check, Input, Item, replace, Select, type Status } from "./inputs.js"
import "../settings/settings.css"

const FIELD_TYPES: ReadonlyArray<readonly [FieldType, string]> = [["text", "Text"], ["image", "Image (URL)"], ["chat", "Chat"], ["custom", "Custom (HTML template)"]]
const QUESTION_TYPES: ReadonlyArray<readonly [QuestionType, string]> = [
  ["label_selection", "Label"],
  ["multi_label_selection", "Multi-label"],
  ["rating", "Rating"],
  ["text", "Text"],
  ["ranking", "Ranking"],
  ["span", "Span"]
]
const METADATA_TYPES: ReadonlyArray<readonly [MetadataType, string]> = [["terms", "Terms"], ["integer", "Integer"], ["float", "Float"]]

export const NewDataset = () => {
  const user = useQuery(me)
  const workspaces = useQuery(myWorkspaces)
  const [draft, setDraft] = useState<Draft>(() => ({
    name: "",
    workspaceId: "",
    guidelines: "",
    minSubmitted: "1",
    fields: [newField("text")],
    questions: [{ ...newQuestion("label"), labels: "positive\nnegative" }],
    metadata: [],
    vectors: []
  }))
  const [created, setCreated] = useState<Dataset | undefined>(undefined)
  const [status, setStatus] = useState<Record<string, Status>>({})
  const [serverProblems, setServerProblems] = useState<Record<string, Array<string>>>({})
  const [sending, setSending] = useState(false)
  const [checked, setChecked] = useState(false)

  if (user.data !== undefined && !canManage(user.data.role)) {
    return (
      <main id="main" className="page settings-page">
        <h1>New dataset</h1>
        <p role="alert" className="notice">Only owners and admins can create datasets.</p>
        <Link to="/">Back to datasets</Link>
      </main>
    )
  }

  const workspaceId = draft.workspaceId === "" ? workspaces.data?.[0]?.id ?? "" : draft.workspaceId
  const current: Draft = { ...draft, workspaceId }
  const local = draftProblems(current)
  const problemsFor = (key: string) => [...(checked ? local[key] ?? [] : []), ...(serverProblems[key] ?? [])]
  const set = (change: Partial<Draft>) => setDraft({ ...draft, ...change })
  const textFields = draft.fields.filter((f) => f.type === "text")

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setChecked(true)
    if (Object.keys(local).length > 0) return
    setSending(true)
    const found: Record<string, Array<string>> = {}
    const done: Record<string, Status> = { ...status }
    const attempt = async (key: string, send: () => Promise<unknown>) => {
      if (done[key] === "created") return true
      try {
        await send()
        done[key] = "created"
        return true
      } catch (error) {
        done[key] = "failed"
        found[key] = problemsOf(error).map((p) => (p.path === "" ? p.message : `${p.path}: ${p.message}`))
        return false
      }
    }
    try {
      let dataset = created
      if (dataset === undefined) {
        const workspace = Schema.decodeUnknownOption(WorkspaceId)(workspaceId)
        if (workspace._tag === "None") {
          found["dataset"] = ["Pick a workspace."]
          return
        }
        try {
          dataset = await call((c) => c.datasets.create({ payload: datasetPayload(current, workspace.value) }))
          setCreated(dataset)
        } catch (error) {
          found["dataset"] = problemsOf(error).map((p) => p.message)
          return
        }
      }
      const id = dataset.id
      // Fields first: span questions name a field. Within a kind every item is tried, so all failures show at once.
      const steps: ReadonlyArray<ReadonlyArray<readonly [string, () => Promise<unknown>]>> = [
        current.fields.map((f) => [f.key, () => call((c) => c.fields.create({ path: { id }, payload: fieldPayload(f) }))] as const),
        [
          ...current.questions.map((q) => [q.key, () => call((c) => c.questions.create({ path: { id }, payload: questionPayload(q) }))] as const),
          ...current.metadata.map((m) => [m.key, () => call((c) => c.metadataProperties.create({ path: { id }, payload: metadataPayload(m) }))] as const),
          ...current.vectors.map((v) => [v.key, () => call((c) => c.vectorSettings.create({ path: { id }, payload: vectorPayload(v) }))] as const)
        ]
      ]
      for (const step of steps) {
        let ok = true
        for (const [key, send] of step) ok = (await attempt(key, send)) && ok
        if (!ok) return
      }
      const published = await attempt("publish", () => call((c) => c.datasets.publish({ path: { id } })))
      if (!published) return
      await queryClient.invalidateQueries({ queryKey: ["me", "datasets"] })
      navigate(`/dataset/${id}/settings`)
    } finally {
      setStatus(done)
      setServerProblems(found)
      setSending(false)
    }
  }

  const remove = <K extends "fields" | "questions" | "metadata" | "vectors">(kind: K, key: string) =>
    set({ [kind]: draft[kind].filter((item) => item.key !== key) })

  return (
    <main id="main" className="page settings-page new-dataset">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/">Datasets</Link> <span aria-hidden="true">/</span> <h1>New dataset</h1>
      </nav>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <section aria-labelledby="nd-dataset">
          <h2 id="nd-dataset">Dataset</h2>
          <fieldset className="draft-item panel" disabled={created !== undefined}>
            <legend>Dataset{created === undefined ? "" : " (created)"}</legend>
            <div className="grid">
              <Input id="nd-name" label="Name" value={draft.name} onChange={(name) => set({ name })} />
              <div className="settings-input">
                <label htmlFor="nd-workspace">Workspace</label>
                <select id="nd-workspace" value={workspaceId} onChange={(e) => set({ workspaceId: e.target.value })}>
                  {(workspaces.data ?? []).map((w) => <option key={w.id} value={w.id}>{w.name}</option>)}
                </select>
              </div>
              <Input id="nd-min" label="Responses needed per record" type="number" value={draft.minSubmitted} onChange={(minSubmitted) => set({ minSubmitted })} />
            </div>
            <Input id="nd-guidelines" label="Guidelines (markdown)" multiline value={draft.guidelines} onChange={(guidelines) => set({ guidelines })} />
            {problemsFor("dataset").length > 0 ? <ul className="error">{problemsFor("dataset").map((p) => <li key={p}>{p}</li>)}</ul> : null}
          </fieldset>
        </section>

        <section aria-labelledby="nd-fields">
          <h2 id="nd-fields">Fields</h2>
          <div className="draft-items">
            {draft.fields.map((f, i) => (
              <Item key={f.key} label={`field ${i + 1}`} status={status[f.key]} problems={problemsFor(f.key)} onRemove={() => remove("fields", f.key)}>
                <Input id={`${f.key}-name`} label="Name" value={f.name} onChange={(name) => set({ fields: replace(draft.fields, f.key, { name }) })} />
                <Input id={`${f.key}-title`} label="Title" value={f.title} onChange={(title) => set({ fields: replace(draft.fields, f.key, { title }) })} />
                <Select id={`${f.key}-type`} label="Type" value={f.type} options={FIELD_TYPES} onChange={(type) => set({ fields: replace(draft.fields, f.key, { type }) })} />
                <Check id={`${f.key}-required`} label="Required" checked={f.required} onChange={(required) => set({ fields: replace(draft.fields, f.key, { required }) })} />
                {f.type === "text" || f.type === "chat"
                  ? <Check id={`${f.key}-markdown`} label="Render as markdown" checked={f.markdown} onChange={(markdown) => set({ fields: replace(draft.fields, f.key, { markdown }) })} />
                  : null}
                {f.type === "custom"
                  ? <Input id={`${f.key}-template`} label="Template (HTML)" multiline value={f.template} onChange={(template) => set({ fields: replace(draft.fields, f.key, { template }) })} />
                  : null}
              </Item>
            ))}
          </div>
          {problemsFor("fields").length > 0 ? <p className="error">{problemsFor("fields").join(" ")}</p> : null}
          <button type="button" onClick={() => set({ fields: [...draft.fields, newField()] })}>Add a field</button>
        </section>

        <section aria-labelledby="nd-questions">
          <h2 id="nd-questions">Questions</h2>
          <div className="draft-items">
            {draft.questions.map((q, i) => (
              <Item key={q.key} label={`question ${i + 1}`} status={status[q.key]} problems={problemsFor(q.key)} onRemove={() => remove("questions", q.key)}>
                <Input id={`${q.key}-name`} label="Name" value={q.name} onChange={(name) => set({ questions: replace(draft.questions, q.key, { name }) })} />
                <Input id={`${q.key}-title`} label="Title" value={q.title} onChange={(title) => set({ questions: replace(draft.questions, q.key, { title }) })} />
                <Select id={`${q.key}-type`} label="Type" value={q.type} options={QUESTION_TYPES} onChange={(type) => set({ questions: replace(draft.questions, q.key, { type }) })} />
                <Check id={`${q.key}-required`} label="Required" checked={q.required} onChange={(required) => set({ questions: replace(draft.questions, q.key, { required }) })} />
                <Input id={`${q.key}-description`} label="Description" value={q.description} onChange={(description) => set({ questions: replace(draft.questions, q.key, { description }) })} />
                {q.type === "rating"
                  ? <Input id={`${q.key}-ratings`} label="Values" hint="Whole numbers 0–10, separated by commas" value={q.ratings} onChange={(ratings) => set({ questions: replace(draft.questions, q.key, { ratings }) })} />
                  : null}
                {q.type === "text"
                  ? <Check id={`${q.key}-markdown`} label="Answers in markdown" checked={q.markdown} onChange={(markdown) => set({ questions: replace(draft.questions, q.key, { markdown }) })} />
                  : null}
                {q.type === "span" ? (
                  <div className="settings-input">
                    <label htmlFor={`${q.key}-field`}>Text field to mark</label>
                    <select id={`${q.key}-field`} value={q.field} onChange={(e) => set({ questions: replace(draft.questions, q.key, { field: e.target.value }) })}>
                      <option value="">Pick a text field</option>
                      {textFields.map((f) => <option key={f.key} value={f.name}>{f.title || f.name}</option>)}
                    </select>
                  </div>
                ) : null}
                {q.type === "label_selection" || q.type === "multi_label_selection" || q.type === "ranking" || q.type === "span"
                  ? <Input id={`${q.key}-labels`} label="Options" hint="One per line" multiline value={q.labels} onChange={(labels) => set({ questions: replace(draft.questions, q.key, { labels }) })} />
                  : null}
              </Item>
            ))}
          </div>
          {problemsFor("questions").length > 0 ? <p className="error">{problemsFor("questions").join(" ")}</p> : null}
          <button type="button" onClick={() => set({ questions: [...draft.questions, newQuestion()] })}>Add a question</button>
        </section>

        <section aria-labelledby="nd-metadata">
          <h2 id="nd-metadata">Metadata</h2>
          <div className="draft-items">
            {draft.metadata.map((m, i) => (
              <Item key={m.key} label={`metadata property ${i + 1}`} status={status[m.key]} problems={problemsFor(m.key)} onRemove={() => remove("metadata", m.key)}>
                <Input id={`${m.key}-name`} label="Name" value={m.name} onChange={(name) => set({ metadata: replace(draft.metadata, m.key, { name }) })} />
                <Input id={`${m.key}-title`} label="Title" value={m.title} onChange={(title) => set({ metadata: replace(draft.metadata, m.key, { title }) })} />
                <Select id={`${m.key}-type`} label="Type" value={m.type} options={METADATA_TYPES} onChange={(type) => set({ metadata: replace(draft.metadata, m.key, { type }) })} />
                <Check id={`${m.key}-visible`} label="Visible to annotators" checked={m.visible} onChange={(visible) => set({ metadata: replace(draft.metadata, m.key, { visible }) })} />
              </Item>
            ))}
          </div>
          <button type="button" onClick={() => set({ metadata: [...draft.metadata, newMetadata()] })}>Add a metadata property</button>
        </section>

        <section aria-labelledby="nd-vectors">
          <h2 id="nd-vectors">Vectors</h2>
          <div className="draft-items">
            {draft.vectors.map((v, i) => (
              <Item key={v.key} label={`vector ${i + 1}`} status={status[v.key]} problems={problemsFor(v.key)} onRemove={() => remove("vectors", v.key)}>
                <Input id={`${v.key}-name`} label="Name" value={v.name} onChange={(name) => set({ vectors: replace(draft.vectors, v.key, { name }) })} />
                <Input id={`${v.key}-title`} label="Title" value={v.title} onChange={(title) => set({ vectors: replace(draft.vectors, v.key, { title }) })} />
                <Input id={`${v.key}-dimensions`} label="Dimensions" type="number" value={v.dimensions} onChange={(dimensions) => set({ vectors: replace(draft.vectors, v.key, { dimensions }) })} />
              </Item>
            ))}
          </div>
          <button type="button" onClick={() => set({ vectors: [...draft.vectors, newVector()] })}>Add a vector</button>
        </section>

        <div className="settings-save">
          <button type="submit" className="primary" disabled={sending}>
            {sending ? "Creating…" : created === undefined ? "Create and publish" : "Continue: create the rest and publish"}
          </button>
          {checked && Object.keys(local).length > 0 ? <p role="alert" className="error">Fix the problems marked above first.</p> : null}
          {serverProblems["publish"] !== undefined ? <p role="alert" className="error">Publishing failed: {serverProblems["publish"].join(" ")}</p> : null}
        </div>
        {created !== undefined && !sending ? (
          <p role="status" className="notice">
            The dataset “{created.name}” exists as a draft, not published yet: fix what is marked and press Continue, or
            open its <Link to={`/dataset/${created.id}/settings`}>settings</Link>.
          </p>
        ) : null}
      </form>
    </main>
  )
}

/**
 * `/dataset/:id/settings` (Argilla's route): General, Fields, Questions, Metadata, Vectors and Danger zone, one at a
 * time (`?tab=`), each saved with the contract's PATCH. Owners and admins edit; anyone else is told so, with no form.
 */
import { useQuery } from "@tanstack/react-query"
import { useState } from "react"
import type { DatasetId } from "../../../../src/domain/Ids.js"
import { errorMessage } from "../../data/client.js"
import { dataset as datasetQuery, fields as fieldsQuery, me, questions as questionsQuery } from "../../data/queries.js"
import {
  allMetadataProperties,
  canManage,
  deleteDataset,
  publishDataset,
  updateDataset,
  updateField,
  updateMetadataProperty,
  updateQuestion,
  updateVectorSettings,
  vectorSettings
} from "../../data/settings.js"
import { Link, navigate, setSearch, useLocation } from "../../router.js"
import { DangerZone } from "./DangerZone.js"
import { FieldsSection } from "./FieldsSection.js"
import { GeneralSection } from "./GeneralSection.js"
import { MetadataSection, VectorsSection } from "./MetadataVectors.js"
import { QuestionsSection } from "./QuestionsSection.js"
import "./settings.css"

/** A draft (left so by a failed creation, or made through the API) is published from here; the server says what is missing. */
const PublishDraft = (props: { readonly datasetId: DatasetId }) => {
  const [state, setState] = useState<{ readonly busy: boolean; readonly failure?: string }>({ busy: false })
  const publish = async () => {
    setState({ busy: true })
    try {
      await publishDataset(props.datasetId)
      setState({ busy: false })
    } catch (error) {
      setState({ busy: false, failure: errorMessage(error) })
    }
  }
  return (
    <>
      <span className="badge">Draft: not published</span>
      <button type="button" className="primary" disabled={state.busy} onClick={() => void publish()}>Publish</button>
      {state.failure === undefined ? null : <p role="alert" className="error">{state.failure}</p>}
    </>
  )
}

const TABS = [
  ["general", "General"],
  ["fields", "Fields"],
  ["questions", "Questions"],
  ["metadata", "Metadata"],
  ["vectors", "Vectors"],
  ["danger", "Danger zone"]
] as const
type Tab = typeof TABS[number][0]
const isTab = (value: string | null): value is Tab => TABS.some(([tab]) => tab === value)

export const DatasetSettings = (props: { readonly datasetId: DatasetId }) => {
  const id = props.datasetId
  const { search } = useLocation()
  const raw = search.get("tab")
  const tab: Tab = isTab(raw) ? raw : "general"
  const user = useQuery(me)
  const manager = canManage(user.data?.role)
  const dataset = useQuery(datasetQuery(id))
  const fields = useQuery({ ...fieldsQuery(id), enabled: manager })
  const questions = useQuery({ ...questionsQuery(id), enabled: manager })
  const metadata = useQuery({ ...allMetadataProperties(id), enabled: manager })
  const vectors = useQuery({ ...vectorSettings(id), enabled: manager })

  const head = (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <Link to="/">Datasets</Link> <span aria-hidden="true">/</span>{" "}
      {dataset.data === undefined ? null : <><Link to={`/dataset/${id}/annotation-mode`}>{dataset.data.name}</Link> <span aria-hidden="true">/</span></>}
      <h1>Settings</h1>
    </nav>
  )
  if (user.data !== undefined && !manager) {
    return (
      <main id="main" className="page settings-page">
        {head}
        <p role="alert" className="notice">Only owners and admins can change a dataset's settings.</p>
        <Link to={`/dataset/${id}/annotation-mode`}>Back to the dataset</Link>
      </main>
    )
  }
  const failure = dataset.error ?? fields.error ?? questions.error ?? metadata.error ?? vectors.error
  if (failure !== null) {
    return (
      <main id="main" className="page settings-page">
        {head}
        <p role="alert">{errorMessage(failure)}</p>
        <Link to="/">Back to datasets</Link>
      </main>
    )
  }
  const ready = dataset.data !== undefined && fields.data !== undefined && questions.data !== undefined &&
    metadata.data !== undefined && vectors.data !== undefined

  return (
    <main id="main" className="page settings-page">
      {head}
      <div className="settings-actions">
        <Link to={`/dataset/${id}/import`} className="button">Import records</Link>
        {dataset.data?.status === "draft" ? <PublishDraft datasetId={id} /> : null}
      </div>
      <nav aria-label="Settings sections" className="settings-tabs">
        {TABS.map(([key, label]) => (
          <a
            key={key}
            href={`dataset/${id}/settings${key === "general" ? "" : `?tab=${key}`}`}
            aria-current={key === tab ? "page" : undefined}
            onClick={(event) => {
              event.preventDefault()
              setSearch({ tab: key === "general" ? undefined : key }, { replace: false })
            }}
          >
            {label}
          </a>
        ))}
      </nav>
      {!ready ? <p>Loading settings…</p> : (
        <div className="settings-body" data-ready="true">
          {tab === "general" ? <GeneralSection dataset={dataset.data} save={(update) => updateDataset(id, update)} /> : null}
          {tab === "fields" ? <FieldsSection fields={fields.data} save={(field, update) => updateField(id, field.id, update)} /> : null}
          {tab === "questions"
            ? <QuestionsSection questions={questions.data} save={(question, update) => updateQuestion(id, question.id, update)} />
            : null}
          {tab === "metadata"
            ? <MetadataSection properties={metadata.data} save={(property, update) => updateMetadataProperty(id, property.id, update)} />
            : null}
          {tab === "vectors"
            ? <VectorsSection vectors={vectors.data} save={(vector, update) => updateVectorSettings(id, vector.id, update)} />
            : null}
          {tab === "danger"
            ? <DangerZone name={dataset.data.name} remove={() => deleteDataset(id)} onDeleted={() => navigate("/", { replace: true })} />
            : null}
        </div>
      )}
    </main>
  )
}

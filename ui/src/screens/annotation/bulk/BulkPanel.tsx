/**
 * The bulk view's page: records per page and the pager, the selection (a record, this page, or every record
 * matching the search and filters, with a confirmation when that is more than the page), the list, and the one
 * form. It holds the selection and the form; what a write does is the caller's (`onApply`), so it is tested alone.
 */
import { type ReactNode, useMemo, useState } from "react"
import type { Field } from "../../../../../src/domain/Field.js"
import type { RecordId, UserId } from "../../../../../src/domain/Ids.js"
import type { Question } from "../../../../../src/domain/Question.js"
import type { DatasetRecord } from "../../../../../src/domain/Record.js"
import type { ResponseStatus, ResponseValues } from "../../../../../src/domain/Response.js"
import { type FormValues, submitErrors, toResponseValues } from "../questions/answers.js"
import { Link } from "../../../router.js"
import { BulkCard } from "./BulkCard.js"
import { BulkForm } from "./BulkForm.js"
import "./bulk.css"
import {
  allMatching,
  isSelected,
  MAX_EXCLUDE,
  none,
  PAGE_SIZES,
  type PageSize,
  pageSelected,
  rangeLabel,
  type Selection,
  selectedCount,
  toggle,
  togglePage
} from "./selection.js"

/** What a write goes to: records on the page, or every match less `exclude`. */
export type BulkTarget =
  | { readonly _tag: "records"; readonly records: ReadonlyArray<DatasetRecord> }
  | { readonly _tag: "all"; readonly exclude: ReadonlyArray<RecordId>; readonly count: number }

interface Props {
  readonly records: ReadonlyArray<DatasetRecord>
  readonly total: number
  readonly totalRelation: "eq" | "gte"
  readonly offset: number
  readonly pageSize: PageSize
  readonly loading: boolean
  readonly fields: ReadonlyArray<Field>
  readonly questions: ReadonlyArray<Question>
  readonly me: UserId | undefined
  /** the write in progress blocks another */
  readonly busy: boolean
  /** per record: why its last write failed */
  readonly itemErrors: Readonly<Record<string, string>>
  /** the outcome of the last write, or the apply job's progress */
  readonly status?: ReactNode
  /** a change of search or filters clears the selection */
  readonly queryKey: string
  /** so does a change of page or page size, unless all matching records are selected */
  readonly pageKey: string
  readonly onPageSize: (size: PageSize) => void
  readonly onPage: (offset: number) => void
  /** resolves true when the write went through (the selection is then cleared) */
  readonly onApply: (target: BulkTarget, status: ResponseStatus, values: ResponseValues | null) => Promise<boolean>
  /** For owners and admins: the assignments page, where "Assign selected…" takes the records picked here. */
  readonly assignHref?: string | undefined
}

/** The most picked records "Assign selected…" carries in its link (each id is 37 characters of the URL). */
const MAX_ASSIGN_LINK = 200

export const BulkPanel = (props: Props) => {
  const { me, pageSize, records, total, totalRelation } = props
  const [selection, setSelection] = useState<Selection>(none)
  const [confirming, setConfirming] = useState(false)
  const [values, setValues] = useState<FormValues>({})
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({})
  const [formError, setFormError] = useState<string | undefined>(undefined)
  const [shown, setShown] = useState({ query: props.queryKey, page: props.pageKey })
  if (shown.query !== props.queryKey || shown.page !== props.pageKey) {
    setShown({ query: props.queryKey, page: props.pageKey })
    if (shown.query !== props.queryKey || selection._tag === "some") setSelection(none)
    setConfirming(false)
  }

  const formQuestions = useMemo(() => props.questions.filter((q) => q.settings.type !== "span"), [props.questions])
  const spanQuestions = useMemo(() => props.questions.filter((q) => q.settings.type === "span"), [props.questions])
  const spanColors = useMemo(() =>
    spanQuestions.map((question) => ({
      question,
      colors: new Map(question.settings.type === "span" ? question.settings.options.map((o, i) => [o.value, i % 10] as const) : [])
    })), [spanQuestions])
  const requiredSpans = spanQuestions.filter((q) => q.required)

  const pageIds = useMemo(() => records.map((r) => r.id), [records])
  const count = selectedCount(selection, total)
  const all = selection._tag === "all"
  const totalText = totalRelation === "gte" ? `${total}+` : `${total}`
  const countText = all && totalRelation === "gte" ? `${count}+` : `${count}`
  const more = totalRelation === "gte" || total > records.length

  const onToggle = (id: RecordId) => setSelection((current) => toggle(current, id))

  const setValue = (name: string, value: unknown) => {
    setValues((current) => {
      const { [name]: _old, ...rest } = current
      return value === undefined ? rest : { ...rest, [name]: value }
    })
    setErrors((current) => {
      const { [name]: _gone, ...rest } = current
      return rest
    })
  }

  const save = async (status: ResponseStatus) => {
    setFormError(undefined)
    if (count === 0) return setFormError("Select at least one record first.")
    const answer = toResponseValues(formQuestions, values)
    if (status === "submitted") {
      const problems = submitErrors(formQuestions, values)
      if (Object.keys(problems).length > 0) return setErrors(problems)
    }
    if (status !== "discarded" && answer === null) return setFormError("Answer at least one question first.")
    if (selection._tag === "all" && selection.exclude.size > MAX_EXCLUDE) {
      return setFormError(`After selecting all, deselect at most ${MAX_EXCLUDE} records (${selection.exclude.size} are).`)
    }
    const target: BulkTarget = selection._tag === "all"
      ? { _tag: "all", exclude: [...selection.exclude], count }
      : { _tag: "records", records: records.filter((r) => selection.ids.has(r.id)) }
    const ok = await props.onApply(target, status, status === "discarded" ? null : answer)
    if (ok) {
      setSelection(none)
      setConfirming(false)
    }
  }

  return (
    <section className="bulk" aria-labelledby="bulk-title">
      <h2 id="bulk-title" className="visually-hidden">Records, bulk view</h2>
      <div className="bulk-toolbar">
        <label className="bulk-page-size">
          Records per page{" "}
          <select value={pageSize} onChange={(e) => props.onPageSize(PAGE_SIZES.find((s) => String(s) === e.target.value) ?? 10)}>
            {PAGE_SIZES.map((size) => <option key={size} value={size}>{size}</option>)}
          </select>
        </label>
        <span className="bulk-select-page">
          <input
            id="bulk-select-page"
            type="checkbox"
            checked={pageSelected(selection, pageIds)}
            disabled={records.length === 0 || props.busy}
            onChange={() => setSelection((current) => togglePage(current, pageIds))}
          />
          <label htmlFor="bulk-select-page">Select this page</label>
        </span>
        {all
          ? (
            <span className="bulk-all">
              All {totalText} matching records selected
              {selection.exclude.size > 0 ? `, less ${selection.exclude.size} deselected` : ""}.{" "}
              {/* The button pressed to get here is gone: keyboard users go on from this one. */}
              <button type="button" className="secondary" autoFocus onClick={() => setSelection(none)}>Clear selection</button>
            </span>
          )
          : confirming
          ? (
            <span className="bulk-confirm" role="group" aria-label="Confirm selecting all matching records">
              Select all {totalText} records matching the current search and filters, not only this page?{" "}
              <button type="button" className="primary" autoFocus onClick={() => {
                setSelection(allMatching)
                setConfirming(false)
              }}>
                Yes, select all {totalText}
              </button>{" "}
              <button type="button" className="secondary" onClick={() => setConfirming(false)}>Cancel</button>
            </span>
          )
          : (
            <button type="button" className="secondary" disabled={total === 0 || props.busy}
              onClick={() => (more ? setConfirming(true) : setSelection(allMatching))}>
              Select all {totalText} matching
            </button>
          )}
        <span className="bulk-count" aria-live="polite">{countText} selected</span>
        {props.assignHref === undefined || selection._tag !== "some" || selection.ids.size === 0
          ? null
          : selection.ids.size > MAX_ASSIGN_LINK
          ? <span className="muted">To assign more than {MAX_ASSIGN_LINK} picked records, filter them and use Assign….</span>
          : <Link to={`${props.assignHref}?ids=${[...selection.ids].join(",")}`}>Assign selected…</Link>}
      </div>
      <nav className="bulk-pager" aria-label="Pages">
        <button type="button" className="secondary" disabled={props.offset === 0}
          onClick={() => props.onPage(Math.max(0, props.offset - pageSize))}>
          Previous page
        </button>
        <span className="muted">{rangeLabel(props.offset, records.length, total, totalRelation)}</span>
        <button type="button" className="secondary"
          disabled={!(totalRelation === "gte" || props.offset + records.length < total) || records.length < pageSize}
          onClick={() => props.onPage(props.offset + pageSize)}>
          Next page
        </button>
      </nav>
      {props.status}
      <div className="bulk-layout">
        <div className="bulk-records" aria-busy={props.loading}>
          {records.length === 0
            ? <p className="empty">{props.loading ? "Loading records…" : "No records on this page."}</p>
            : (
              <ol className="bulk-list" aria-label="Records">
                {records.map((record, i) => (
                  <BulkCard
                    key={record.id}
                    record={record}
                    fields={props.fields}
                    spanQuestions={spanColors}
                    me={me}
                    position={props.offset + i + 1}
                    selected={isSelected(selection, record.id)}
                    error={props.itemErrors[record.id]}
                    onToggle={onToggle}
                  />
                ))}
              </ol>
            )}
        </div>
        <div className="bulk-side">
          <BulkForm
            questions={formQuestions}
            spanQuestions={spanQuestions}
            values={values}
            errors={errors}
            target={count === 0 ? "the selected records" : `${countText} selected record${count === 1 ? "" : "s"}`}
            disabled={props.busy}
            submitNote={requiredSpans.length === 0
              ? undefined
              : `Submitting needs an answer to ${requiredSpans.map((q) => q.title).join(", ")}: records without one are ` +
                "not submitted (each says why); save them as drafts here and submit them in the focus view."}
            onChange={setValue}
            onSave={(status) => void save(status)}
          />
          {formError === undefined ? null : <p className="error" role="alert">{formError}</p>}
        </div>
      </div>
    </section>
  )
}

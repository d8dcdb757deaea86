/**
 * One record being answered: the record card and the question form side by side, the form's state, the writes,
 * and the keyboard. Moving to another record resets the state but keeps the DOM (no remount): that is most of
 * what makes the next record appear within a frame.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react"
import type { Dataset } from "../../../../src/domain/Dataset.js"
import type { Field } from "../../../../src/domain/Field.js"
import type { UserId } from "../../../../src/domain/Ids.js"
import type { MetadataProperty } from "../../../../src/domain/MetadataProperty.js"
import type { Question } from "../../../../src/domain/Question.js"
import type { DatasetRecord } from "../../../../src/domain/Record.js"
import type { Response, ResponseStatus } from "../../../../src/domain/Response.js"
import { errorMessage } from "../../data/client.js"
import { refreshProgress } from "../../data/queries.js"
import { myResponse, saveResponse } from "../../data/records.js"
import { type Action, actionFor, isTyping } from "../../keyboard/shortcuts.js"
import { type FormValues, initialValues, questionOfMessage, submitErrors, suggestionFor, toResponseValues } from "./questions/answers.js"
import { pick } from "./questions/pick.js"
import { QuestionForm } from "./questions/QuestionForm.js"
import { RecordCard } from "./RecordCard.js"
import { CodePoints, type Span } from "./span/offsets.js"

/** A save that can be undone: the record before it, the caller's response before it (if any), and what was saved. */
export interface SavedChange {
  readonly before: DatasetRecord
  readonly previous: Response | undefined
  readonly saved: Response
}

interface Props {
  readonly dataset: Dataset
  readonly fields: ReadonlyArray<Field>
  readonly questions: ReadonlyArray<Question>
  /** The metadata properties the caller sees: the record shows its metadata by their titles. */
  readonly metadataProperties?: ReadonlyArray<MetadataProperty> | undefined
  readonly record: DatasetRecord
  readonly me: UserId | undefined
  readonly position: string
  /** After a save: the record as saved, and the caller's response before it (undefined: none), for an undo. */
  readonly onSaved: (record: DatasetRecord, change: SavedChange) => void
  readonly onUndo: () => void
  readonly onNext: () => void
  readonly onPrevious: () => void
  readonly onHelp: () => void
}

/**
 * Enter on a focused button or link presses it; it does not also submit the record. An answer's option is the
 * exception: a mouse click leaves the focus on it, and pressing it again would undo the pick the user is about to
 * submit. Space still toggles a focused option; Enter submits, as the help sheet says.
 */
const pressesItself = (target: EventTarget | null) =>
  target instanceof HTMLElement && target.closest("button, a[href], summary") !== null &&
  target.closest(".question-form .option") === null

export const RecordWorkspace = (props: Props) => {
  const { dataset, fields, questions, record } = props
  const response = myResponse(record, props.me)
  const [values, setValues] = useState<FormValues>(() => initialValues(questions, record, response))
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({})
  const [formError, setFormError] = useState<string | undefined>(undefined)
  const [active, setActive] = useState(0)
  const [busy, setBusy] = useState(false)
  const [spanLabels, setSpanLabels] = useState<Readonly<Record<string, string>>>(() =>
    Object.fromEntries(questions.flatMap((q) =>
      q.settings.type === "span" && q.settings.options[0] !== undefined ? [[q.name, q.settings.options[0].value]] : []
    ))
  )
  // A new record: start from its saved answer or its suggestions, on the first question.
  const [shown, setShown] = useState(record)
  if (shown !== record) {
    const sameRecord = shown.id === record.id
    setShown(record)
    if (!sameRecord) {
      setValues(initialValues(questions, record, response))
      setErrors({})
      setFormError(undefined)
      setActive(0)
      setBusy(false)
    }
  }
  const sectionRefs = useRef<Array<HTMLElement | null>>([])
  const editorRefs = useRef<Record<string, HTMLDivElement | null>>({})

  const setValue = useCallback((name: string, value: unknown) => {
    setValues((current) => {
      const { [name]: _old, ...rest } = current
      return value === undefined ? rest : { ...rest, [name]: value }
    })
    setErrors((current) => {
      if (!(name in current)) return current
      const { [name]: _gone, ...rest } = current
      return rest
    })
  }, [])

  const codePointsByField = useMemo(() => {
    const map = new Map<string, CodePoints>()
    for (const q of questions) {
      if (q.settings.type !== "span") continue
      const text = record.fields[q.settings.field]
      if (typeof text === "string") map.set(q.name, new CodePoints(text))
    }
    return map
  }, [questions, record])

  const excerpt = useCallback((question: Question) => (span: Span) => {
    const text = question.settings.type === "span" ? record.fields[question.settings.field] : undefined
    const cp = codePointsByField.get(question.name)
    if (typeof text !== "string" || cp === undefined) return ""
    return text.slice(cp.utf16(span.start), cp.utf16(span.end))
  }, [codePointsByField, record])

  const focusQuestion = (index: number) => {
    setActive(index)
    sectionRefs.current[index]?.focus()
  }

  const save = async (status: ResponseStatus) => {
    if (busy) return
    setFormError(undefined)
    if (status === "submitted") {
      const problems = submitErrors(questions, values)
      const first = questions.findIndex((q) => q.name in problems)
      if (first !== -1) {
        setErrors(problems)
        focusQuestion(first)
        return
      }
    }
    setBusy(true)
    try {
      const previous = myResponse(record, props.me)
      const saved = await saveResponse(record, props.me, status, toResponseValues(questions, values))
      void refreshProgress(dataset.id)
      setBusy(false)
      props.onSaved({ ...record, responses: [saved] }, { before: record, previous, saved })
    } catch (error) {
      const message = errorMessage(error)
      const question = questionOfMessage(questions, message)
      if (question === undefined) setFormError(message)
      else setErrors({ [question]: message })
      setBusy(false)
    }
  }

  const enter = (index: number) => {
    const question = questions[index]
    if (question === undefined) return
    setActive(index)
    if (question.settings.type === "span") editorRefs.current[question.name]?.focus()
    else sectionRefs.current[index]?.querySelector<HTMLElement>("textarea, button, select, input")?.focus()
  }

  const run = (action: Action) => {
    const question = questions[active]
    switch (action._tag) {
      case "help":
        return props.onHelp()
      case "nextQuestion":
        return focusQuestion(Math.min(questions.length - 1, active + 1))
      case "previousQuestion":
        return focusQuestion(Math.max(0, active - 1))
      case "pick": {
        if (question === undefined) return
        if (question.settings.type === "span") {
          const option = question.settings.options[action.index]
          if (option !== undefined) setSpanLabels((current) => ({ ...current, [question.name]: option.value }))
          return
        }
        const current = values[question.name]
        const change = pick(question, current, action.index, suggestionFor(record, question))
        // A key always selects a single-choice option (pressing it again does not clear it, as a click does).
        const single = question.settings.type === "label_selection" || question.settings.type === "rating"
        if (change._tag === "set" && !(single && change.value === undefined)) setValue(question.name, change.value)
        return
      }
      case "enterQuestion":
        return enter(active)
      case "leave":
        return focusQuestion(active)
      case "submit":
        return void save("submitted")
      case "draft":
        return void save("draft")
      case "discard":
        return void save("discarded")
      case "nextRecord":
        return props.onNext()
      case "previousRecord":
        return props.onPrevious()
      case "undo":
        return props.onUndo()
    }
  }

  // One listener for the life of the record; it always runs the latest `run`.
  const runRef = useRef(run)
  runRef.current = run
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || document.querySelector("dialog[open]") !== null) return
      // A rank's `<select>` takes digits and arrows as a text box does, but Enter means nothing on a closed one:
      // there it submits, as on an option.
      const onSelect = event.key === "Enter" && event.target instanceof HTMLSelectElement
      const action = actionFor(event, isTyping(event.target) && !onSelect)
      if (action === undefined) return
      if ((action._tag === "submit" || action._tag === "enterQuestion") && pressesItself(event.target)) return
      event.preventDefault()
      runRef.current(action)
    }
    window.addEventListener("keydown", onKey)
    return () => window.removeEventListener("keydown", onKey)
  }, [])

  // Keyboard users start the next record on its first question.
  useEffect(() => {
    const focused = document.activeElement
    const inForm = focused !== null && sectionRefs.current.some((section) => section?.contains(focused))
    if (inForm || focused === document.body) sectionRefs.current[0]?.focus({ preventScroll: true })
  }, [record.id])

  const status = response?.status ?? "pending"
  return (
    <div className="workspace">
      <RecordCard
        record={record}
        fields={fields}
        questions={questions}
        metadataProperties={props.metadataProperties}
        values={values}
        spanLabels={spanLabels}
        status={status}
        position={props.position}
        editorRefs={editorRefs}
        onChange={setValue}
        onEditorFocus={(name) => setActive(Math.max(0, questions.findIndex((q) => q.name === name)))}
        onEditorLeave={(name) => focusQuestion(Math.max(0, questions.findIndex((q) => q.name === name)))}
      />
      <QuestionForm
        questions={questions}
        record={record}
        values={values}
        errors={errors}
        formError={formError}
        active={active}
        busy={busy}
        spanLabels={spanLabels}
        excerpt={excerpt}
        sectionRefs={sectionRefs}
        onActivate={setActive}
        onChange={setValue}
        onSpanLabel={(name, label) => setSpanLabels((current) => ({ ...current, [name]: label }))}
        onEnter={enter}
        onSubmit={() => void save("submitted")}
        onDraft={() => void save("draft")}
        onDiscard={() => void save("discarded")}
      />
    </div>
  )
}

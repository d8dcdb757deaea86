/**
 * Questions: title and description; text questions' markdown; for label, multi-label and span questions the
 * options' wording and order (Move up / Move down, by keyboard too), `visible_options`, multi-label's option order
 * and span's overlapping. Rating and ranking options cannot change once created (Argilla refuses it): shown
 * only.
 */
import { type FormEvent, useEffect, useRef, useState } from "react"
import type { LabelOption, Question, QuestionSettingsUpdate, QuestionUpdate } from "../../../../src/domain/Question.js"
import { otherProblems, problemsAt } from "../../data/settings.js"
import { ProblemText, SaveRow, TextInput, useSave } from "./form.js"
import { moveItem, optionsChanged } from "./options.js"

type Editable = Extract<Question["settings"], { readonly type: "label_selection" | "multi_label_selection" | "span" }>

const isEditable = (settings: Question["settings"]): settings is Editable =>
  settings.type === "label_selection" || settings.type === "multi_label_selection" || settings.type === "span"

const OptionsEditor = (props: {
  readonly questionId: string
  readonly options: ReadonlyArray<LabelOption>
  readonly onChange: (options: ReadonlyArray<LabelOption>) => void
  readonly messages: ReadonlyArray<string>
}) => {
  const { options } = props
  const focusNext = useRef<string | undefined>(undefined)
  const list = useRef<HTMLOListElement>(null)
  useEffect(() => {
    // After a move the focus follows the moved option's button (or its other button at either end of the list).
    const wanted = focusNext.current
    if (wanted === undefined) return
    focusNext.current = undefined
    const button = list.current?.querySelector<HTMLButtonElement>(`[data-move="${CSS.escape(wanted)}"]:not(:disabled)`)
    button?.focus()
  })
  const move = (index: number, delta: number, value: string) => {
    focusNext.current = value
    props.onChange(moveItem(options, index, delta))
  }
  const problemId = `q-${props.questionId}-options-problem`
  return (
    <fieldset className="options-editor">
      <legend>Options (wording and order)</legend>
      <ol ref={list} aria-describedby={props.messages.length > 0 ? problemId : undefined}>
        {options.map((option, index) => {
          const inputId = `q-${props.questionId}-option-${index}`
          return (
            <li key={option.value} className="option-row">
              <label htmlFor={inputId}>
                <span className="visually-hidden">Text of option </span>
                <code>{option.value}</code>
              </label>
              <input
                id={inputId}
                value={option.text}
                onChange={(e) => props.onChange(options.map((o, i) => (i === index ? { ...o, text: e.target.value } : o)))}
              />
              <span className="option-moves">
                <button
                  type="button"
                  data-move={option.value}
                  disabled={index === 0}
                  aria-label={`Move ${option.text || option.value} up`}
                  onClick={() => move(index, -1, option.value)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  data-move={option.value}
                  disabled={index === options.length - 1}
                  aria-label={`Move ${option.text || option.value} down`}
                  onClick={() => move(index, 1, option.value)}
                >
                  ↓
                </button>
              </span>
            </li>
          )
        })}
      </ol>
      <ProblemText id={problemId} messages={props.messages} />
    </fieldset>
  )
}

const QuestionForm = (props: { readonly question: Question; readonly save: (update: QuestionUpdate) => Promise<unknown> }) => {
  const { question } = props
  const settings = question.settings
  const editable = isEditable(settings) ? settings : undefined
  const [title, setTitle] = useState(question.title)
  const [description, setDescription] = useState(question.description ?? "")
  const [options, setOptions] = useState<ReadonlyArray<LabelOption>>(editable?.options ?? [])
  const [visible, setVisible] = useState(editable?.visible_options === null || editable === undefined ? "" : String(editable.visible_options))
  const [optionsOrder, setOptionsOrder] = useState(settings.type === "multi_label_selection" ? settings.options_order : "natural")
  const [overlapping, setOverlapping] = useState(settings.type === "span" ? settings.allow_overlapping : false)
  const [markdown, setMarkdown] = useState(settings.type === "text" ? settings.use_markdown : false)
  const { state, problems, run, touched } = useSave()

  const visibleNumber = visible.trim() === "" ? null : Number(visible)
  const visibleValid = visibleNumber === null || (Number.isInteger(visibleNumber) && visibleNumber >= 3)
  let settingsUpdate: QuestionSettingsUpdate | undefined
  if (settings.type === "text" && markdown !== settings.use_markdown) settingsUpdate = { type: "text", use_markdown: markdown }
  if (editable !== undefined && visibleValid) {
    const changes = {
      ...(optionsChanged(editable.options, options) ? { options } : {}),
      ...(visibleNumber !== editable.visible_options ? { visible_options: visibleNumber } : {}),
      ...(settings.type === "multi_label_selection" && optionsOrder !== settings.options_order ? { options_order: optionsOrder } : {}),
      ...(settings.type === "span" && overlapping !== settings.allow_overlapping ? { allow_overlapping: overlapping } : {})
    }
    if (Object.keys(changes).length > 0) settingsUpdate = { type: editable.type, ...changes }
  }
  const update: QuestionUpdate = {
    ...(title !== question.title ? { title } : {}),
    ...(description !== (question.description ?? "") ? { description: description.trim() === "" ? null : description } : {}),
    ...(settingsUpdate === undefined ? {} : { settings: settingsUpdate })
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(() => props.save(update))
  }
  const edit = <A,>(set: (value: A) => void) => (value: A) => {
    set(value)
    touched()
  }
  const id = `q-${question.id}`
  const visibleMessages = [
    ...(visibleValid ? [] : ["Enter a whole number, 3 or more, or leave it empty to show every option."]),
    ...problemsAt(problems, "settings.visible_options")
  ]
  return (
    <form className="settings-item panel" onSubmit={submit} aria-label={`Question ${question.name}`}>
      <h3>{question.name} <span className="badge">{settings.type.replaceAll("_", " ")}</span></h3>
      <p className="muted">{question.required ? "Required." : "Optional."}</p>
      <TextInput label="Title" value={title} onChange={edit(setTitle)} problems={problems} path="title" />
      <TextInput label="Description" value={description} onChange={edit(setDescription)} problems={problems} path="description" multiline />
      {settings.type === "text" ? (
        <div className="settings-check">
          <input id={`${id}-markdown`} type="checkbox" checked={markdown} onChange={(e) => edit(setMarkdown)(e.target.checked)} />
          <label htmlFor={`${id}-markdown`}>Answers are written in markdown</label>
        </div>
      ) : null}
      {settings.type === "rating" ? (
        <p>Values: {settings.options.map((o) => o.value).join(", ")} <span className="muted">(cannot change once created)</span></p>
      ) : null}
      {settings.type === "ranking" ? (
        <div>
          <p className="muted">Ranking options cannot change once created:</p>
          <ol>{settings.options.map((o) => <li key={o.value}>{o.text} <code>{o.value}</code></li>)}</ol>
        </div>
      ) : null}
      {editable === undefined ? null : (
        <>
          <OptionsEditor
            questionId={question.id}
            options={options}
            onChange={edit(setOptions)}
            messages={problemsAt(problems, "settings.options")}
          />
          <div className="settings-input">
            <label htmlFor={`${id}-visible`}>Options shown before “more” (visible_options)</label>
            <input
              id={`${id}-visible`}
              type="number"
              min={3}
              max={options.length}
              value={visible}
              placeholder="all"
              aria-invalid={visibleMessages.length > 0 ? true : undefined}
              aria-describedby={visibleMessages.length > 0 ? `${id}-visible-problem` : undefined}
              onChange={(e) => edit(setVisible)(e.target.value)}
            />
            <ProblemText id={`${id}-visible-problem`} messages={visibleMessages} />
          </div>
          {settings.type === "multi_label_selection" ? (
            <div className="settings-input">
              <label htmlFor={`${id}-order`}>Option order for annotators</label>
              <select id={`${id}-order`} value={optionsOrder} onChange={(e) => edit(setOptionsOrder)(e.target.value === "suggestion" ? "suggestion" : "natural")}>
                <option value="natural">As listed</option>
                <option value="suggestion">Suggested first</option>
              </select>
            </div>
          ) : null}
          {settings.type === "span" ? (
            <div className="settings-check">
              <input
                id={`${id}-overlap`}
                type="checkbox"
                checked={overlapping}
                disabled={settings.allow_overlapping}
                aria-describedby={`${id}-overlap-hint`}
                onChange={(e) => edit(setOverlapping)(e.target.checked)}
              />
              <label htmlFor={`${id}-overlap`}>Spans may overlap</label>
              <span id={`${id}-overlap-hint`} className="muted settings-hint">Once allowed, overlapping cannot be turned off.</span>
            </div>
          ) : null}
        </>
      )}
      <SaveRow
        state={state}
        dirty={Object.keys(update).length > 0}
        others={otherProblems(problems, ["title", "description", "settings.options", "settings.visible_options"])}
      />
    </form>
  )
}

export const QuestionsSection = (props: {
  readonly questions: ReadonlyArray<Question>
  readonly save: (question: Question, update: QuestionUpdate) => Promise<unknown>
}) => (
  <section aria-labelledby="questions-heading" className="settings-list">
    <h2 id="questions-heading">Questions</h2>
    {props.questions.length === 0 ? <p className="muted">This dataset has no questions.</p> : null}
    {props.questions.map((question) => (
      <QuestionForm key={question.id} question={question} save={(update) => props.save(question, update)} />
    ))}
  </section>
)

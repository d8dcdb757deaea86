/**
 * Adjudication of one record: its questions (see `QuestionReview`), the picks and notes the reviewer makes, and the
 * keys that make them (`keys.ts`). Enter settles every picked question in one write and moves on; the questions
 * nobody disputes start picked, so a record with one disagreement is one key and Enter.
 */
import { createRef, type RefObject, useEffect, useRef, useState } from "react"
import type { Question } from "../../../../../src/domain/Question.js"
import type { FinalAnswerSet, ReviewItem } from "../../../../../src/domain/Review.js"
import { errorMessage } from "../../../data/client.js"
import { isTyping } from "../../../keyboard/shortcuts.js"
import { reviewActionFor, REVIEW_KEYS } from "./keys.js"
import { initialPick, ownStart, type Pick, settleItems, submittedAnswers, suggestedValue } from "./picks.js"
import { QuestionReview } from "./QuestionReview.js"

interface Props {
  readonly item: ReviewItem
  readonly questions: ReadonlyArray<Question>
  readonly nameOf: (id: string) => string
  readonly onSettle: (items: ReadonlyArray<FinalAnswerSet>) => Promise<void>
  readonly onUnsettle: (question: string) => Promise<void>
  readonly onNext: () => void
  readonly onPrevious: () => void
}

const percent = (agreement: number) => `${Math.round(agreement * 100)} %`

export const AdjudicationPanel = (props: Props) => {
  const { item, nameOf, questions } = props
  const { record } = item
  const answers = Object.fromEntries(questions.map((q) => [q.name, submittedAnswers(record, q, nameOf)]))
  const finalOf = (name: string) => item.final_answers.find((f) => f.question === name)
  const disagreeing = new Set(item.disagreements)
  const [picks, setPicks] = useState<Readonly<Record<string, Pick | undefined>>>(() =>
    Object.fromEntries(questions.map((q) => [q.name, initialPick(answers[q.name] ?? [], disagreeing.has(q.name), finalOf(q.name))]))
  )
  const [notes, setNotes] = useState<Readonly<Record<string, string>>>(() =>
    Object.fromEntries(questions.map((q) => [q.name, finalOf(q.name)?.note ?? ""]))
  )
  const [problems, setProblems] = useState<Readonly<Record<string, string>>>({})
  const [failure, setFailure] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  // The first disputed question has the focus to start with: that is where the reviewer's decision is needed.
  const [active, setActive] = useState(() => Math.max(0, questions.findIndex((q) => disagreeing.has(q.name))))
  const sections = useRef<Array<HTMLElement | null>>([])
  const noteRefs = useRef(new Map<string, RefObject<HTMLTextAreaElement | null>>())
  const noteRef = (name: string) => {
    const existing = noteRefs.current.get(name)
    if (existing !== undefined) return existing
    const created = createRef<HTMLTextAreaElement>()
    noteRefs.current.set(name, created)
    return created
  }

  const pickFor = (name: string, pick: Pick | undefined) => {
    setPicks((current) => ({ ...current, [name]: pick }))
    setProblems(({ [name]: _gone, ...rest }) => rest)
  }

  const settle = async () => {
    if (busy) return
    const result = settleItems(questions, picks, notes)
    if (result._tag === "problems") {
      setProblems(result.problems)
      return
    }
    setProblems({})
    if (result.items.length === 0) {
      // Nothing picked on a record already settled: Enter just moves on, as it does after a settle.
      const settled = item.final_answers.length > 0 &&
        questions.every((q) => (answers[q.name]?.length ?? 0) === 0 || finalOf(q.name) !== undefined)
      if (settled) props.onNext()
      else setFailure("Pick an answer for at least one question first.")
      return
    }
    setBusy(true)
    setFailure(undefined)
    try {
      await props.onSettle(result.items)
    } catch (error) {
      setFailure(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }

  const unsettle = async (name: string) => {
    if (busy || finalOf(name) === undefined) return
    setBusy(true)
    setFailure(undefined)
    try {
      await props.onUnsettle(name)
    } catch (error) {
      setFailure(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }

  const focusQuestion = (index: number) => {
    const bounded = Math.min(Math.max(index, 0), questions.length - 1)
    setActive(bounded)
    sections.current[bounded]?.focus()
  }

  // A new record takes the focus to its current question, so the keys act on it at once (and Enter does not press
  // the button that was last clicked, such as Review or Next); not while the reviewer types elsewhere.
  useEffect(() => {
    if (isTyping(document.activeElement) || document.querySelector("dialog[open]") !== null) return
    sections.current[active]?.focus({ preventScroll: true })
    // Only when the panel mounts: one record, one panel (ReviewMode keys it by record).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  const latest = useRef({ settle, unsettle, focusQuestion, pickFor, picks, active })
  latest.current = { settle, unsettle, focusQuestion, pickFor, picks, active }
  const { onNext, onPrevious } = props
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // An open dialog (the help sheet, "Accept all agreed") has the keys.
      if (event.defaultPrevented || document.querySelector("dialog[open]") !== null) return
      const typing = isTyping(event.target)
      const action = reviewActionFor(event, typing)
      if (action === undefined) return
      // Enter on another button (Unsettle, Load more) presses that button; on an answer it settles.
      const target = event.target instanceof HTMLElement ? event.target : null
      if (action._tag === "settle" && target?.closest("button, a, summary") != null && !target.closest("[data-review-pick]")) {
        return
      }
      const now = latest.current
      const question = questions[now.active]
      switch (action._tag) {
        case "leave":
          if (!typing) return
          sections.current[now.active]?.focus()
          break
        case "nextQuestion":
          now.focusQuestion(now.active + 1)
          break
        case "previousQuestion":
          now.focusQuestion(now.active - 1)
          break
        case "nextRecord":
          onNext()
          break
        case "previousRecord":
          onPrevious()
          break
        case "settle":
          void now.settle()
          break
        case "unsettle":
          if (question !== undefined) void now.unsettle(question.name)
          break
        case "note":
          if (question === undefined) return
          noteRefs.current.get(question.name)?.current?.focus()
          break
        case "pickAnswer": {
          const answer = question === undefined ? undefined : answers[question.name]?.[action.index]
          if (question === undefined || answer === undefined) return
          now.pickFor(question.name, { source: "response", userId: answer.userId, value: answer.value })
          break
        }
        case "pickSuggestion": {
          const suggestion = question === undefined ? undefined : suggestedValue(record, question)
          if (question === undefined || suggestion === undefined) return
          now.pickFor(question.name, { source: "suggestion", value: suggestion.value })
          break
        }
        case "ownAnswer": {
          if (question === undefined) return
          now.pickFor(question.name, { source: "reviewer", value: ownStart(now.picks[question.name], finalOf(question.name)) })
          // Into the first input of the own answer, once it is drawn.
          requestAnimationFrame(() =>
            sections.current[now.active]?.querySelector<HTMLElement>(".review-own button, .review-own textarea, .review-own select, .review-own [tabindex]")
              ?.focus()
          )
          break
        }
      }
      event.preventDefault()
    }
    window.addEventListener("keydown", onKey)
    return () => window.removeEventListener("keydown", onKey)
  })

  const settledCount = item.final_answers.length
  return (
    <section className="panel review-panel" aria-labelledby="review-title">
      <h2 id="review-title">Adjudication</h2>
      <p className="review-summary" data-testid="record-agreement">
        {item.agreement === null
          ? "Agreement: not compared (no question has two submitted answers)."
          : `Agreement: ${percent(item.agreement)}.`}{" "}
        {item.disagreements.length === 0
          ? "No disagreement."
          : `Disagreement on ${item.disagreements.map((name) => questions.find((q) => q.name === name)?.title ?? name).join(", ")}.`}{" "}
        {settledCount === 0 ? "Nothing settled yet." : `${settledCount} of ${questions.length} settled.`}
      </p>
      {questions.map((question, index) => (
        <QuestionReview
          key={question.id}
          question={question}
          record={record}
          answers={answers[question.name] ?? []}
          disagreeing={disagreeing.has(question.name)}
          final={finalOf(question.name)}
          pick={picks[question.name]}
          note={notes[question.name] ?? ""}
          problem={problems[question.name]}
          active={index === active}
          busy={busy}
          nameOf={nameOf}
          sectionRef={(node) => void (sections.current[index] = node)}
          noteRef={noteRef(question.name)}
          onActivate={() => setActive(index)}
          onPick={(pick) => pickFor(question.name, pick)}
          onNote={(note) => setNotes((current) => ({ ...current, [question.name]: note }))}
          onUnsettle={() => void unsettle(question.name)}
        />
      ))}
      {failure === undefined ? null : <p className="error" role="alert">{failure}</p>}
      <div className="actions review-actions">
        <button type="button" className="primary" disabled={busy} onClick={() => void settle()} aria-keyshortcuts="Enter">
          {busy ? "Settling…" : "Settle"} <kbd aria-hidden="true">{REVIEW_KEYS.settle}</kbd>
        </button>
      </div>
    </section>
  )
}

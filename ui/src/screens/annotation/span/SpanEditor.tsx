/**
 * The text of a field referenced by a span question, with its spans drawn over it. Mouse: select text, and the
 * selection snaps to tokens (hold Shift for characters) and takes the current label. Keyboard: a cursor moves by
 * token (Alt: by character), Shift extends it, Enter marks, Delete removes. Overlapping spans sit on separate lines.
 * Spans come in and go out in code points; the DOM works in UTF-16 (see offsets.ts).
 */
import {
  Fragment,
  type KeyboardEvent,
  memo,
  type MouseEvent,
  type ReactNode,
  type Ref,
  useEffect,
  useMemo,
  useRef,
  useState
} from "react"
import { hitRanges } from "../filters/highlight.js"
import {
  addSpan,
  characters,
  CodePoints,
  lanes,
  type Range16,
  segments,
  snap,
  type Span,
  tokens
} from "./offsets.js"

export interface SpanLabel {
  readonly value: string
  readonly text: string
  readonly color: number
}

interface Props {
  readonly text: string
  readonly spans: ReadonlyArray<Span>
  readonly labels: ReadonlyArray<SpanLabel>
  readonly activeLabel: string | undefined
  readonly allowOverlapping: boolean
  readonly title: string
  readonly onChange: (spans: ReadonlyArray<Span>) => void
  readonly onFocus?: () => void
  readonly onLeave?: () => void
  readonly editorRef?: Ref<HTMLDivElement>
  /** The text search's words, marked as in the other fields (a stable set: the editor is memoized). */
  readonly highlight?: ReadonlySet<string> | undefined
}

interface Cursor {
  readonly anchor: Range16
  readonly focus: Range16
}

const selectionOf = (cursor: Cursor): Range16 => ({
  start: Math.min(cursor.anchor.start, cursor.focus.start),
  end: Math.max(cursor.anchor.end, cursor.focus.end)
})

/** UTF-16 offset of a DOM position inside `container` (whose text is exactly the field's text). */
const offsetIn = (container: HTMLElement, node: Node, offset: number): number => {
  const range = document.createRange()
  range.setStart(container, 0)
  range.setEnd(node, offset)
  return range.toString().length
}

const shadow = (laneList: ReadonlyArray<{ lane: number; color: number }>) =>
  laneList.map(({ color, lane }) => `0 ${3 + lane * 4}px 0 0 var(--label-${color})`).join(", ")

export const SpanEditor = memo(function SpanEditor(props: Props) {
  const { activeLabel, allowOverlapping, labels, onChange, spans, text } = props
  const container = useRef<HTMLDivElement | null>(null)
  const codePoints = useMemo(() => new CodePoints(text), [text])
  const units = useRef<{ tokens?: ReadonlyArray<Range16>; characters?: ReadonlyArray<Range16> }>({})
  const [cursor, setCursor] = useState<Cursor | undefined>(undefined)
  useEffect(() => {
    units.current = {}
    setCursor(undefined)
  }, [text])

  // Search hits are `<mark>`s inside the pieces: they only wrap text, so the editor's text content (which
  // `offsetIn` measures) stays the field's raw text, and selections keep their offsets.
  const hits = useMemo(() => (props.highlight === undefined ? [] : hitRanges(text, props.highlight)), [text, props.highlight])
  const marked = (start: number, end: number): ReactNode => {
    const inside = hits.filter((h) => h.start < end && start < h.end)
    if (inside.length === 0) return text.slice(start, end)
    const out: Array<ReactNode> = []
    let at = start
    for (const hit of inside) {
      const from = Math.max(start, hit.start)
      const to = Math.min(end, hit.end)
      if (from > at) out.push(text.slice(at, from))
      out.push(<mark key={from} className="search-hit">{text.slice(from, to)}</mark>)
      at = to
    }
    if (at < end) out.push(text.slice(at, end))
    return out
  }

  const colorOf = useMemo(() => new Map(labels.map((l) => [l.value, l.color])), [labels])
  const ranges = useMemo(() => spans.map((s) => codePoints.fromWire(s)), [spans, codePoints])
  const laneOf = useMemo(() => lanes(ranges), [ranges])
  const selection = cursor === undefined ? undefined : selectionOf(cursor)
  const pieces = useMemo(
    () => segments(text.length, selection === undefined ? ranges : [...ranges, selection]),
    [text.length, ranges, selection?.start, selection?.end]
  )
  const lastPieceOf = useMemo(() => {
    const last = new Map<number, Array<number>>()
    ranges.forEach((r, i) => {
      const pieceIndex = pieces.findIndex((p) => p.end === r.end && p.covering.includes(i))
      last.set(pieceIndex, [...(last.get(pieceIndex) ?? []), i])
    })
    return last
  }, [pieces, ranges])

  useEffect(() => {
    container.current?.querySelector(".span-cursor")?.scrollIntoView?.({ block: "nearest" })
  }, [selection?.start, selection?.end])

  const mark = (range: Range16) => {
    if (activeLabel === undefined) return
    onChange(addSpan(spans, codePoints.toWire(activeLabel, range), allowOverlapping))
  }

  const onMouseUp = (event: MouseEvent<HTMLDivElement>) => {
    const root = container.current
    const selected = window.getSelection()
    if (root === null || selected === null || selected.rangeCount === 0 || selected.isCollapsed) return
    const range = selected.getRangeAt(0)
    if (!root.contains(range.startContainer) || !root.contains(range.endContainer)) return
    const start = offsetIn(root, range.startContainer, range.startOffset)
    const end = offsetIn(root, range.endContainer, range.endOffset)
    const snapped = snap(text, start, end, event.shiftKey ? "character" : "token")
    selected.removeAllRanges()
    if (snapped !== undefined) mark(snapped)
  }

  const unitList = (byCharacter: boolean) => {
    const cache = units.current
    if (byCharacter) return (cache.characters ??= characters(text))
    return (cache.tokens ??= tokens(text))
  }

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const { altKey, ctrlKey, key, metaKey, shiftKey } = event
    if (ctrlKey || metaKey) return
    if (key === "ArrowRight" || key === "ArrowLeft") {
      event.preventDefault()
      event.stopPropagation()
      const list = unitList(altKey)
      const focus = cursor?.focus
      const next = key === "ArrowRight"
        ? focus === undefined ? list[0] : list.find((u) => u.start >= focus.end) ?? focus
        : focus === undefined ? list[0] : [...list].reverse().find((u) => u.end <= focus.start) ?? focus
      if (next === undefined) return
      setCursor(shiftKey && cursor !== undefined ? { anchor: cursor.anchor, focus: next } : { anchor: next, focus: next })
    } else if (key === "Enter" && !shiftKey) {
      event.preventDefault()
      event.stopPropagation()
      if (selection !== undefined) mark(selection)
    } else if (key === "Delete" || key === "Backspace") {
      event.preventDefault()
      event.stopPropagation()
      if (selection === undefined) return
      const at = codePoints.toWire("", selection)
      onChange(spans.filter((s) => !(s.start < at.end && at.start < s.end)))
    } else if (key === "Escape") {
      event.stopPropagation()
      props.onLeave?.()
    }
  }

  return (
    <div
      ref={(node) => {
        container.current = node
        const ref = props.editorRef
        if (typeof ref === "function") ref(node)
        else if (ref !== null && ref !== undefined) ref.current = node
      }}
      className="span-text"
      role="application"
      aria-roledescription="span annotator"
      aria-label={`${props.title}: select text to mark it with the current label. Arrow keys move by token, Shift extends, Enter marks, Delete removes.`}
      tabIndex={0}
      onMouseUp={onMouseUp}
      onKeyDown={onKeyDown}
      onFocus={props.onFocus}
    >
      {pieces.map((piece, index) => {
        const slice = marked(piece.start, piece.end)
        const covering = piece.covering.filter((i) => i < ranges.length)
        const isCursor = selection !== undefined && piece.covering.includes(ranges.length)
        const ending = lastPieceOf.get(index)
        if (covering.length === 0 && !isCursor) return <Fragment key={piece.start}>{slice}</Fragment>
        const lanesHere = covering.map((i) => ({
          lane: laneOf[i] ?? 0,
          color: colorOf.get(spans[i]?.label ?? "") ?? 0
        })).sort((a, b) => a.lane - b.lane)
        return (
          <span
            key={piece.start}
            className={isCursor ? "span-piece span-cursor" : "span-piece"}
            data-labels={ending?.map((i) => spans[i]?.label).join(" · ")}
            style={covering.length === 0 ? undefined : {
              boxShadow: shadow(lanesHere),
              paddingBottom: `${lanesHere.length * 4}px`,
              backgroundColor: `color-mix(in srgb, var(--label-${lanesHere[0]?.color ?? 0}) 18%, transparent)`
            }}
          >
            {slice}
          </span>
        )
      })}
    </div>
  )
})

/**
 * A field's text with spans drawn over it, read-only: the focus view's drawing (pieces cut at span boundaries,
 * overlapping spans on separate lines, each label's colour) without the editor's cursor and keys.
 */
import { memo, useMemo } from "react"
import { CodePoints, lanes, segments, type Span } from "../span/offsets.js"

interface Props {
  readonly text: string
  readonly spans: ReadonlyArray<Span>
  /** label value → its colour index (the option's position in the question, as in the editor) */
  readonly colors: ReadonlyMap<string, number>
}

const shadow = (laneList: ReadonlyArray<{ lane: number; color: number }>) =>
  laneList.map(({ color, lane }) => `0 ${3 + lane * 4}px 0 0 var(--label-${color})`).join(", ")

export const SpanText = memo(function SpanText({ colors, spans, text }: Props) {
  const ranges = useMemo(() => {
    const codePoints = new CodePoints(text)
    return spans.map((s) => codePoints.fromWire(s))
  }, [spans, text])
  const laneOf = useMemo(() => lanes(ranges), [ranges])
  const pieces = useMemo(() => segments(text.length, ranges), [text.length, ranges])
  return (
    <p className="span-text bulk-span-text">
      {pieces.map((piece) => {
        const slice = text.slice(piece.start, piece.end)
        if (piece.covering.length === 0) return slice
        const lanesHere = piece.covering.map((i) => ({ lane: laneOf[i] ?? 0, color: colors.get(spans[i]?.label ?? "") ?? 0 }))
          .sort((a, b) => a.lane - b.lane)
        const ending = piece.covering.filter((i) => ranges[i]?.end === piece.end).map((i) => spans[i]?.label)
        return (
          <span
            key={piece.start}
            className="span-piece"
            data-labels={ending.length === 0 ? undefined : ending.join(" · ")}
            style={{
              boxShadow: shadow(lanesHere),
              paddingBottom: `${lanesHere.length * 4}px`,
              backgroundColor: `color-mix(in srgb, var(--label-${lanesHere[0]?.color ?? 0}) 18%, transparent)`
            }}
          >
            {slice}
          </span>
        )
      })}
    </p>
  )
})

/** A set of checkboxes over values, and a pair of number inputs: the pieces the filter forms are built from. */
import type { TermValue } from "../../../data/search.js"

export const Checks = (props: {
  readonly legend: string
  readonly options: ReadonlyArray<{ readonly value: TermValue; readonly text: string }>
  readonly chosen: ReadonlyArray<TermValue>
  readonly onChange: (chosen: ReadonlyArray<TermValue>) => void
}) => (
  <fieldset className="filter">
    <legend>{props.legend}</legend>
    {props.options.map(({ text, value }) => (
      <label key={String(value)} className="check">
        <input
          type="checkbox"
          checked={props.chosen.includes(value)}
          onChange={(e) =>
            props.onChange(e.target.checked ? [...props.chosen, value] : props.chosen.filter((v) => v !== value))}
        />
        {text}
      </label>
    ))}
  </fieldset>
)

const numberOrUndefined = (raw: string) => (raw.trim() === "" || Number.isNaN(Number(raw)) ? undefined : Number(raw))

export interface Bounds {
  readonly ge?: number | undefined
  readonly le?: number | undefined
}

export const RangeInputs = (props: {
  readonly legend: string
  readonly bounds: Bounds
  readonly min?: number
  readonly max?: number
  readonly step?: number
  readonly onChange: (bounds: Bounds) => void
}) => {
  const set = (key: "ge" | "le", raw: string) => {
    const { [key]: _dropped, ...rest } = props.bounds
    const value = numberOrUndefined(raw)
    props.onChange(value === undefined ? rest : { ...rest, [key]: value })
  }
  return (
    <fieldset className="filter">
      <legend>{props.legend}</legend>
      <label>
        From
        <input type="number" inputMode="decimal" min={props.min} max={props.max} step={props.step ?? "any"}
          value={props.bounds.ge ?? ""} onChange={(e) => set("ge", e.target.value)} />
      </label>
      <label>
        To
        <input type="number" inputMode="decimal" min={props.min} max={props.max} step={props.step ?? "any"}
          value={props.bounds.le ?? ""} onChange={(e) => set("le", e.target.value)} />
      </label>
    </fieldset>
  )
}

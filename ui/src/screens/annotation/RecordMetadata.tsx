/**
 * A record's metadata under its fields: each declared property by its title, in the dataset's order, then any other
 * key the record carries. The server already leaves out what the caller may not see (properties hidden from
 * annotators, and undeclared keys, for annotators), so everything it sends is shown.
 */
import type { MetadataProperty } from "../../../../src/domain/MetadataProperty.js"

interface Props {
  readonly metadata: Readonly<Record<string, unknown>> | null
  readonly properties: ReadonlyArray<MetadataProperty>
}

/** A value as one line of text: lists joined, numbers as they are, anything else as JSON. */
const shown = (value: unknown): string =>
  Array.isArray(value)
    ? value.map(shown).join(", ")
    : typeof value === "string"
    ? value
    : typeof value === "number" || typeof value === "boolean"
    ? String(value)
    : JSON.stringify(value)

export const RecordMetadata = ({ metadata, properties }: Props) => {
  if (metadata === null) return null
  const declared = properties.filter((p) => p.name in metadata && metadata[p.name] !== null)
  const names = new Set(properties.map((p) => p.name))
  const others = Object.keys(metadata).filter((key) => !names.has(key) && metadata[key] !== null)
  if (declared.length === 0 && others.length === 0) return null
  return (
    <section className="record-metadata" aria-labelledby="record-metadata-title">
      <h2 id="record-metadata-title" className="field-title">Metadata</h2>
      <dl>
        {declared.map((p) => (
          <div key={p.id}>
            <dt title={p.name}>{p.title}</dt>
            <dd>{shown(metadata[p.name])}</dd>
          </div>
        ))}
        {others.map((key) => (
          <div key={key}>
            <dt>{key}</dt>
            <dd>{shown(metadata[key])}</dd>
          </div>
        ))}
      </dl>
    </section>
  )
}

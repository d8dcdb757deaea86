/**
 * One field of a record, by kind: text (plain or markdown), image, chat, or a custom template. The words of the
 * text search (`_search` in the URL, or `highlight`) are marked in text and chat.
 */
import { useMemo, useState } from "react"
import type { Field } from "../../../../../src/domain/Field.js"
import type { DatasetRecord } from "../../../../../src/domain/Record.js"
import { useLocation } from "../../../router.js"
import { HighlightedMarkdown, HighlightedText } from "../filters/Highlighted.js"
import { searchWords } from "../filters/highlight.js"
import { CustomField } from "./CustomField.js"

interface Message {
  readonly role: string
  readonly content: string
}

const isMessages = (value: unknown): value is ReadonlyArray<Message> =>
  Array.isArray(value) &&
  value.every((m) => typeof m === "object" && m !== null && typeof m.role === "string" && typeof m.content === "string")

const ImageValue = (props: { readonly src: string; readonly title: string }) => {
  const [failed, setFailed] = useState(false)
  if (failed) return <p className="muted">Could not load the image.</p>
  return <img className="field-image" src={props.src} alt={props.title} onError={() => setFailed(true)} />
}

export const FieldValue = (props: { readonly field: Field; readonly record: DatasetRecord; readonly highlight?: string }) => {
  const { field, record } = props
  const location = useLocation()
  const q = props.highlight ?? location.search.get("_search") ?? ""
  const words = useMemo(() => searchWords(q), [q])
  const value = record.fields[field.name]
  if (value === undefined || value === null) return <p className="muted">No value.</p>
  const settings = field.settings
  switch (settings.type) {
    case "text":
      if (typeof value !== "string") return <pre>{JSON.stringify(value, null, 2)}</pre>
      return settings.use_markdown
        ? <HighlightedMarkdown source={value} words={words} />
        : <p className="field-text"><HighlightedText text={value} words={words} /></p>
    case "image":
      return typeof value === "string" ? <ImageValue key={value} src={value} title={field.title} /> : null
    case "chat":
      if (!isMessages(value)) return <pre>{JSON.stringify(value, null, 2)}</pre>
      return (
        <ol className="chat">
          {value.map((message, i) => (
            <li key={i} className={`bubble role-${message.role === "user" ? "user" : "other"}`}>
              <span className="role">{message.role}</span>
              {settings.use_markdown
                ? <HighlightedMarkdown source={message.content} words={words} />
                : <p><HighlightedText text={message.content} words={words} /></p>}
            </li>
          ))}
        </ol>
      )
    case "custom":
      return <CustomField template={settings.template} advanced={settings.advanced_mode} record={record} title={field.title} />
  }
}

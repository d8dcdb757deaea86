/**
 * A custom field renders its template inside `<iframe sandbox="allow-scripts">` (no `allow-same-origin`): the
 * frame has an opaque origin, so the template's code cannot read the app's storage or DOM, nor call the API as the
 * user. The frame loads the bundled `sandbox.html`; the template and the record arrive by postMessage (never
 * inlined into markup), and the frame reports its height back.
 */
import { useEffect, useRef, useState } from "react"
import type { DatasetRecord } from "../../../../../src/domain/Record.js"

interface Props {
  readonly template: string
  readonly advanced: boolean
  readonly record: DatasetRecord
  readonly title: string
}

export const CustomField = ({ advanced, record, template, title }: Props) => {
  const frame = useRef<HTMLIFrameElement>(null)
  const [height, setHeight] = useState(80)
  const [ready, setReady] = useState(false)

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.source !== frame.current?.contentWindow) return
      const data: unknown = event.data
      if (typeof data !== "object" || data === null || !("type" in data)) return
      if (data.type === "ready") setReady(true)
      if (data.type === "height" && "height" in data && typeof data.height === "number") {
        setHeight(Math.min(Math.max(40, Math.ceil(data.height)), 4000))
      }
    }
    window.addEventListener("message", onMessage)
    return () => window.removeEventListener("message", onMessage)
  }, [])

  useEffect(() => {
    if (!ready) return
    const payload = {
      type: "render",
      template,
      advanced,
      record: { id: record.id, external_id: record.external_id, fields: record.fields, metadata: record.metadata }
    }
    // The sandboxed frame's origin is opaque ("null"), so no narrower target origin can match it.
    frame.current?.contentWindow?.postMessage(payload, "*")
  }, [ready, template, advanced, record])

  return (
    <iframe
      ref={frame}
      className="custom-field"
      title={title}
      sandbox="allow-scripts"
      src="sandbox.html"
      style={{ height: `${height}px` }}
    />
  )
}

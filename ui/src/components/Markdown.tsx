/** Markdown from records and guidelines: parsed by marked, then sanitized by DOMPurify before it reaches the DOM. */
import DOMPurify from "dompurify"
import { marked } from "marked"
import { memo, useMemo } from "react"

DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A" && node.getAttribute("href") !== null) {
    node.setAttribute("target", "_blank")
    node.setAttribute("rel", "noopener noreferrer")
  }
})

export const renderMarkdown = (source: string): string =>
  DOMPurify.sanitize(marked.parse(source, { async: false, gfm: true, breaks: true }), {
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select"],
    FORBID_ATTR: ["style"]
  })

export const Markdown = memo(function Markdown(props: { readonly source: string; readonly className?: string }) {
  const html = useMemo(() => renderMarkdown(props.source), [props.source])
  return <div className={`markdown ${props.className ?? ""}`} dangerouslySetInnerHTML={{ __html: html }} />
})

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

/**
 * A table wider than the screen scrolls inside its own box rather than the page; the box takes the focus, so the
 * keyboard can scroll it too.
 */
const wrapTables = (fragment: DocumentFragment): string => {
  for (const table of fragment.querySelectorAll("table")) {
    const box = document.createElement("div")
    box.className = "table-scroll"
    box.tabIndex = 0
    table.replaceWith(box)
    box.append(table)
  }
  const holder = document.createElement("div")
  holder.append(fragment)
  return holder.innerHTML
}

export const renderMarkdown = (source: string): string =>
  wrapTables(DOMPurify.sanitize(marked.parse(source, { async: false, gfm: true, breaks: true }), {
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select"],
    FORBID_ATTR: ["style"],
    RETURN_DOM_FRAGMENT: true
  }))

export const Markdown = memo(function Markdown(props: { readonly source: string; readonly className?: string }) {
  const html = useMemo(() => renderMarkdown(props.source), [props.source])
  return <div className={`markdown ${props.className ?? ""}`} dangerouslySetInnerHTML={{ __html: html }} />
})

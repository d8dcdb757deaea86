/**
 * Text with the search's words in `<mark>`: plain text as React nodes, markdown by wrapping the sanitized DOM's text
 * nodes after it renders (elements made with `createElement`, never HTML strings). Read-only rendering only: the
 * span editor measures its own text nodes, so it draws its own marks inside them (`hitRanges`).
 */
import { Fragment, useLayoutEffect, useRef } from "react"
import { Markdown } from "../../../components/Markdown.js"
import { highlightParts } from "./highlight.js"
import "./filters.css"

export const HighlightedText = (props: { readonly text: string; readonly words: ReadonlySet<string> }) => (
  <>
    {highlightParts(props.text, props.words).map((part, i) =>
      part.hit ? <mark key={i} className="search-hit">{part.text}</mark> : <Fragment key={i}>{part.text}</Fragment>
    )}
  </>
)

const HIT = "search-hit"

const unmark = (root: HTMLElement) => {
  for (const mark of Array.from(root.querySelectorAll(`mark.${HIT}`))) {
    mark.replaceWith(document.createTextNode(mark.textContent ?? ""))
  }
  root.normalize()
}

const mark = (root: HTMLElement, words: ReadonlySet<string>) => {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
  const nodes: Array<Text> = []
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    if (node instanceof Text) nodes.push(node)
  }
  for (const node of nodes) {
    const parts = highlightParts(node.data, words)
    if (!parts.some((p) => p.hit)) continue
    node.replaceWith(...parts.map((part) => {
      if (!part.hit) return document.createTextNode(part.text)
      const element = document.createElement("mark")
      element.className = HIT
      element.textContent = part.text
      return element
    }))
  }
}

export const HighlightedMarkdown = (props: { readonly source: string; readonly words: ReadonlySet<string> }) => {
  const root = useRef<HTMLDivElement>(null)
  const key = Array.from(props.words).join(" ")
  useLayoutEffect(() => {
    const node = root.current
    if (node === null) return
    unmark(node)
    if (props.words.size > 0) mark(node, props.words)
    // `key` stands for the words
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.source, key])
  return (
    <div ref={root} className="highlighted">
      <Markdown source={props.source} />
    </div>
  )
}

/**
 * The page inside a custom field's sandboxed frame (opaque origin). It renders what the app posts: a Handlebars
 * template over `record` (with a `json` helper), or in advanced mode raw HTML whose scripts see a global `record`.
 */
import Handlebars from "handlebars"

interface RenderMessage {
  readonly type: "render"
  readonly template: string
  readonly advanced: boolean
  readonly record: unknown
}

const root = document.getElementById("root") ?? document.body

Handlebars.registerHelper("json", (value: unknown) => new Handlebars.SafeString(
  `<pre>${Handlebars.escapeExpression(JSON.stringify(value, null, 2))}</pre>`
))

const reportHeight = () =>
  window.parent.postMessage({ type: "height", height: document.documentElement.scrollHeight }, "*")

new ResizeObserver(reportHeight).observe(document.documentElement)

const isRender = (data: unknown): data is RenderMessage =>
  typeof data === "object" && data !== null && "type" in data && data.type === "render" && "template" in data &&
  typeof data.template === "string"

window.addEventListener("message", (event) => {
  if (event.source !== window.parent || !isRender(event.data)) return
  const { advanced, record, template } = event.data
  try {
    if (advanced) {
      Object.assign(window, { record })
      root.innerHTML = template
      // Scripts added through innerHTML do not run; re-create them so they do.
      for (const old of Array.from(root.querySelectorAll("script"))) {
        const script = document.createElement("script")
        for (const attribute of Array.from(old.attributes)) script.setAttribute(attribute.name, attribute.value)
        script.textContent = old.textContent
        old.replaceWith(script)
      }
    } else {
      root.innerHTML = Handlebars.compile(template)({ record })
    }
  } catch (error) {
    root.textContent = `This template could not be rendered: ${String(error)}`
  }
  reportHeight()
})

window.parent.postMessage({ type: "ready" }, "*")

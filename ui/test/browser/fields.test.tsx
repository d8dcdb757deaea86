/** Every field kind, and the two guards around record content: sanitized markdown, isolated custom templates. */
import { describe, expect, it } from "vitest"
import { render } from "vitest-browser-react"
import { renderMarkdown } from "../../src/components/Markdown.js"
import { FieldValue } from "../../src/screens/annotation/fields/FieldView.js"
import { field, record } from "../fixtures.js"

describe("fields", () => {
  it("text, markdown, image (with a fallback), chat", async () => {
    const r = record({
      plain: "Hello <b>not bold</b>",
      md: "Some **bold** text",
      img: "http://127.0.0.1:9/missing.png",
      chat: [{ role: "user", content: "Hi" }, { role: "assistant", content: "*Hello*" }]
    })
    const screen = render(
      <>
        <FieldValue field={field("plain", { type: "text" })} record={r} />
        <FieldValue field={field("md", { type: "text", use_markdown: true })} record={r} />
        <FieldValue field={field("img", { type: "image" })} record={r} />
        <FieldValue field={field("chat", { type: "chat" })} record={r} />
      </>
    )
    await expect.element(screen.getByText("Hello <b>not bold</b>")).toBeVisible()
    await expect.element(screen.getByText("bold", { exact: true })).toHaveProperty("tagName", "STRONG")
    await expect.element(screen.getByText("Could not load the image.")).toBeVisible()
    await expect.element(screen.getByText("Hello", { exact: true })).toHaveProperty("tagName", "EM")
  })

  it("markdown is sanitized: no scripts, handlers or javascript: links", () => {
    const html = renderMarkdown(
      "<img src=x onerror=\"alert(1)\"><script>alert(2)</script>[link](javascript:alert(3)) <a href=\"https://example.com\">ok</a>"
    )
    expect(html).not.toMatch(/onerror|<script|javascript:/)
    expect(html).toContain('rel="noopener noreferrer"')
  })

  it("a custom template renders in a sandboxed frame without same-origin access", async () => {
    const r = record({ product: { name: "Lamp" } })
    const screen = render(
      <FieldValue field={field("product", { type: "custom", template: "{{record.fields.product.name}}" })} record={r} />
    )
    const frame = screen.getByTitle("product")
    await expect.element(frame).toHaveAttribute("sandbox", "allow-scripts")
    await expect.element(frame).toHaveAttribute("src", "sandbox.html")
  })
})

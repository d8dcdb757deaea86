/**
 * The webhooks page's list, with a stand-in for the server: a webhook Gloss disabled shows why and turns back on
 * with "Re-enable"; a refusal from the server is shown beside it.
 */
import axe from "axe-core"
import { Schema } from "effect"
import { useState } from "react"
import { describe, expect, it } from "vitest"
import { render } from "vitest-browser-react"
import { Unprocessable } from "../../../src/domain/Errors.js"
import type { WebhookId } from "../../../src/domain/Ids.js"
import { Webhook } from "../../../src/domain/Webhook.js"
import { WebhookList } from "../../src/screens/webhooks/WebhookList.js"

const AT = "2026-01-01T00:00:00"
const REASON = "Disabled by Gloss after 8 consecutive failed deliveries; the last: ECONNREFUSED"

const webhook = (id: string, fields: Record<string, unknown>) =>
  Schema.decodeUnknownSync(Webhook)({
    id,
    url: "https://hooks.example.com/argilla",
    secret: "c2VjcmV0",
    events: ["record.created", "response.created"],
    enabled: true,
    description: null,
    inserted_at: AT,
    updated_at: AT,
    consecutive_failures: 0,
    last_failure_at: null,
    last_error: null,
    disabled_reason: null,
    ...fields
  })

const disabled = webhook("50000000-0000-4000-8000-000000000001", {
  enabled: false,
  consecutive_failures: 8,
  last_failure_at: AT,
  last_error: "ECONNREFUSED",
  disabled_reason: REASON
})
const healthy = webhook("50000000-0000-4000-8000-000000000002", { url: "https://other.example.com/hook" })

/** Serious or critical accessibility violations inside `root`, one line each. */
const axeViolations = async (root: Element) => {
  const result = await axe.run(root)
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)
}

/** The list over state that `reenable` changes, as the query cache would after the PATCH. */
const Stand = (props: { readonly fail?: boolean; readonly calls: Array<WebhookId> }) => {
  const [list, setList] = useState([disabled, healthy])
  return (
    <WebhookList
      webhooks={list}
      reenable={async (id) => {
        props.calls.push(id)
        if (props.fail === true) throw new Unprocessable({ detail: "The server said no" })
        setList((current) =>
          current.map((w) => (w.id === id ? { ...w, enabled: true, consecutive_failures: 0, disabled_reason: null } : w))
        )
      }}
    />
  )
}

describe("webhooks", () => {
  it("shows a disabled webhook with its reason, and re-enables it", async () => {
    const calls: Array<WebhookId> = []
    const screen = render(<Stand calls={calls} />)
    const item = screen.getByRole("listitem", { name: disabled.url })
    await expect.element(item).toHaveTextContent("Disabled")
    await expect.element(item).toHaveTextContent(REASON)
    await expect.element(item).toHaveTextContent("Events: record.created, response.created")
    // The healthy one has nothing to re-enable.
    expect(screen.getByRole("button", { name: "Re-enable" }).elements()).toHaveLength(1)
    expect(await axeViolations(screen.container)).toEqual([])

    await screen.getByRole("button", { name: "Re-enable" }).click()
    expect(calls).toEqual([disabled.id])
    await expect.element(item).toHaveTextContent("Enabled")
    expect(item.element().textContent).not.toContain(REASON)
    expect(screen.getByRole("button", { name: "Re-enable" }).elements()).toHaveLength(0)
  })

  it("a refusal from the server is shown beside the webhook, which stays disabled", async () => {
    const calls: Array<WebhookId> = []
    const screen = render(<Stand calls={calls} fail />)
    await screen.getByRole("button", { name: "Re-enable" }).click()
    await expect.element(screen.getByRole("alert")).toHaveTextContent("The server said no")
    await expect.element(screen.getByRole("listitem", { name: disabled.url })).toHaveTextContent(REASON)
  })

  it("says so when there are none", async () => {
    const screen = render(<WebhookList webhooks={[]} reenable={async () => {}} />)
    await expect.element(screen.getByText(/No webhooks yet/)).toBeVisible()
  })
})

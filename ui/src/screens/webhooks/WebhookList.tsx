/**
 * The owner's webhooks as a list: where each posts, what it wants, whether it is on, and, when Gloss turned it off
 * because its receiver kept failing, why, with a button to turn it back on.
 */
import { useState } from "react"
import type { WebhookId } from "../../../../src/domain/Ids.js"
import type { Webhook } from "../../../../src/domain/Webhook.js"
import { errorMessage } from "../../data/client.js"
import "./webhooks.css"

const WebhookItem = (props: { readonly webhook: Webhook; readonly reenable: (id: WebhookId) => Promise<void> }) => {
  const { webhook } = props
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const titleId = `webhook-${webhook.id}`
  const onReenable = async () => {
    setBusy(true)
    setError(undefined)
    try {
      await props.reenable(webhook.id)
    } catch (cause) {
      setError(errorMessage(cause))
    } finally {
      setBusy(false)
    }
  }
  return (
    <li className="webhook-item" aria-labelledby={titleId}>
      <h2 id={titleId}>{webhook.url}</h2>
      {webhook.description === null ? null : <p className="muted">{webhook.description}</p>}
      <p className="webhook-events">Events: {webhook.events.join(", ")}</p>
      <div className="webhook-state">
        <span className={`badge ${webhook.enabled ? "webhook-enabled" : "webhook-disabled"}`}>
          {webhook.enabled ? "Enabled" : "Disabled"}
        </span>
        {webhook.enabled && webhook.consecutive_failures > 0
          ? <span className="muted">Failing: {webhook.consecutive_failures} in a row (last: {webhook.last_error})</span>
          : null}
        {webhook.enabled ? null : (
          <button type="button" onClick={() => void onReenable()} disabled={busy} aria-describedby={titleId}>
            {busy ? "Re-enabling…" : "Re-enable"}
          </button>
        )}
      </div>
      {!webhook.enabled && webhook.disabled_reason !== null
        ? <p className="webhook-reason">{webhook.disabled_reason}</p>
        : null}
      {error === undefined ? null : <p role="alert" className="error">{error}</p>}
    </li>
  )
}

export const WebhookList = (props: {
  readonly webhooks: ReadonlyArray<Webhook>
  readonly reenable: (id: WebhookId) => Promise<void>
}) =>
  props.webhooks.length === 0
    ? <p className="muted">No webhooks yet. Owners add them with the API or the SDK (`client.webhooks.add`).</p>
    : (
      <ul className="webhook-list">
        {props.webhooks.map((webhook) => <WebhookItem key={webhook.id} webhook={webhook} reenable={props.reenable} />)}
      </ul>
    )

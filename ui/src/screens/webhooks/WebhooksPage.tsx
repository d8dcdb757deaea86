/** `/webhooks`: the owner's webhooks, and re-enabling one that Gloss disabled after its receiver kept failing. */
import { useQuery } from "@tanstack/react-query"
import { errorMessage } from "../../data/client.js"
import { me as meQuery } from "../../data/queries.js"
import { reenableWebhook, webhooks as webhooksQuery } from "../../data/webhooks.js"
import { Link } from "../../router.js"
import { WebhookList } from "./WebhookList.js"

export const WebhooksPage = () => {
  const me = useQuery(meQuery).data
  const owner = me?.role === "owner"
  const list = useQuery({ ...webhooksQuery, enabled: owner })
  return (
    <main id="main" className="page">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/">Datasets</Link>
      </nav>
      <h1>Webhooks</h1>
      {me === undefined ? <p>Loading…</p> : !owner
        ? <p role="alert">Only owners can see the webhooks.</p>
        : list.isError
        ? <p role="alert">{errorMessage(list.error)}</p>
        : list.data === undefined
        ? <p>Loading…</p>
        : <WebhookList webhooks={list.data} reenable={reenableWebhook} />}
    </main>
  )
}

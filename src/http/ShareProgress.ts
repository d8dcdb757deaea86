/**
 * Share-your-progress (`GLOSS_ENABLE_SHARE_YOUR_PROGRESS=true`): a public page with one annotator's progress on
 * one dataset, meant to be linked from a post. It shows the dataset's name, the username and counts — nothing
 * else. Disabled (the default), the page does not exist (404).
 */
import { HttpApiBuilder, HttpRouter, HttpServerResponse } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { GlossConfig } from "../Config.js"
import { DbInt } from "../codecs/columns.js"

const Row = Schema.Struct({ dataset: Schema.String, username: Schema.String, submitted: DbInt, total: DbInt })
const decodeRows = Schema.decodeUnknown(Schema.Array(Row))

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c] ?? c)

const page = (row: typeof Row.Type) => {
  const percent = row.total === 0 ? 0 : Math.round((row.submitted / row.total) * 100)
  const title = `${escape(row.username)} annotated ${row.submitted} of ${row.total} records of ${escape(row.dataset)}`
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${title}</title><meta property="og:title" content="${title}">
<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}
progress{width:100%;height:1.25rem}@media (prefers-color-scheme:dark){body{background:#111;color:#eee}}</style></head>
<body><main><h1>${escape(row.dataset)}</h1><p><strong>${escape(row.username)}</strong> has annotated
<strong>${row.submitted}</strong> of ${row.total} records (${percent}%).</p>
<progress value="${row.submitted}" max="${Math.max(row.total, 1)}">${percent}%</progress>
<p><small>Annotated with Gloss</small></p></main></body></html>`
}

export const ShareProgressLive = Layer.unwrapEffect(Effect.map(GlossConfig, ({ features }) =>
  !features.shareYourProgress
    ? Layer.empty
    : HttpApiBuilder.Router.use((router) =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* router.get(
          "/share-your-progress/:dataset/:username",
          Effect.gen(function*() {
            const params = yield* HttpRouter.params
            const datasetId = params.dataset ?? ""
            const username = params.username ?? ""
            if (!Schema.is(Schema.UUID)(datasetId)) return HttpServerResponse.unsafeJson({ detail: "Not Found" }, { status: 404 })
            const rows = yield* sql`select d.name as dataset, u.username,
                (select count(*) from responses rs join records r on r.id = rs.record_id
                  where r.dataset_id = d.id and rs.user_id = u.id and rs.status = 'submitted') as submitted,
                (select count(*) from records r where r.dataset_id = d.id) as total
              from datasets d, users u where d.id = ${datasetId} and u.username = ${username}`.pipe(
              Effect.flatMap(decodeRows),
              Effect.orDie
            )
            return Option.match(Option.fromNullable(rows[0]), {
              onNone: () => HttpServerResponse.unsafeJson({ detail: "Not Found" }, { status: 404 }),
              onSome: (row) => HttpServerResponse.html(page(row))
            })
          })
        )
      })
    )))

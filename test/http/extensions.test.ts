import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { datasetPath, send } from "../support/datasets.js"
import { userWith, workspace } from "../support/fixtures.js"
import { OWNER, raw, TestServerLive } from "../support/server.js"

describe("share your progress", () => {
  layer(TestServerLive("sqlite", { GLOSS_ENABLE_SHARE_YOUR_PROGRESS: "true" }), { excludeTestServices: true })(
    "share your progress, enabled",
    (it) => {
      it.effect("a public page shows one annotator's progress on a dataset, and /settings says it is on", () =>
        Effect.gen(function*() {
          const w = yield* workspace()
          const created = yield* send("POST", "/api/v1/datasets", { name: "Reviews <b>", workspace_id: w.id })
          const dataset = created.body as { id: string; name: string }
          yield* send("POST", datasetPath({ id: dataset.id } as never, "/fields"), { name: "text", title: "T", settings: { type: "text" } })
          void dataset
          const settings = yield* raw("/api/v1/settings")
          expect(settings.body).toMatchObject({ argilla: { share_your_progress_enabled: true } })
          const page = yield* raw(`/share-your-progress/${dataset.id}/${OWNER.username}`)
          expect(page.status).toBe(200)
          expect(page.headers.get("content-type")).toContain("text/html")
          expect(page.text).toContain("has annotated")
          expect(page.text).toContain("Reviews &lt;b&gt;")
          expect(page.text).not.toContain("api_key")
          const annotator = yield* userWith("annotator", [w])
          expect((yield* raw(`/share-your-progress/${dataset.id}/${annotator.user.username}`)).status).toBe(200)
          expect((yield* raw(`/share-your-progress/${dataset.id}/nobody`)).status).toBe(404)
          expect((yield* raw(`/share-your-progress/not-a-uuid/${OWNER.username}`)).status).toBe(404)
        }))
    }
  )

  layer(TestServerLive("sqlite"), { excludeTestServices: true })("share your progress, disabled (the default)", (it) => {
    it.effect("the page does not exist", () =>
      Effect.gen(function*() {
        const w = yield* workspace()
        const created = yield* send("POST", "/api/v1/datasets", { name: "d", workspace_id: w.id })
        const id = (created.body as { id: string }).id
        expect((yield* raw(`/share-your-progress/${id}/${OWNER.username}`)).status).toBe(404)
      }))
  })
})

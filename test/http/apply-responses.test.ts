/**
 * `POST /me/datasets/{id}/responses/apply` (a Gloss addition): one request answers every record a search
 * matches, as a job whose progress `GET /jobs/{id}` shows; through the typed client against a real server.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DatasetId, RecordId } from "../../src/domain/Ids.js"
import type { ResponsesApply } from "../../src/domain/ResponsesApply.js"
import { testSettings } from "../jobs/support/backends.js"
import { datasetPath, draftDataset, send } from "../support/datasets.js"
import { expectFailure } from "../support/expect.js"
import { userWith, workspace } from "../support/fixtures.js"
import { clientFor } from "../support/server.js"
import { serverSetups, serverWithJobSettings, settledJob } from "../jobs/support/serverSetups.js"

type Json = Record<string, unknown>
const items = (response: { readonly body: unknown }) => (response.body as { items: Array<Json> }).items

/** A published dataset of `n` records: `group` is "a" for 3 records in 5 ("b" for the others); a span question. */
const dataset = (n: number) =>
  Effect.gen(function*() {
    const w = yield* workspace()
    const ds = yield* draftDataset(w)
    const post = (kind: string, payload: unknown) => send("POST", datasetPath(ds, `/${kind}`), payload)
    yield* post("fields", { name: "text", title: "Text", settings: { type: "text" } })
    yield* post("questions", {
      name: "label",
      title: "Label",
      required: true,
      settings: { type: "label_selection", options: [{ value: "yes", text: "Yes" }, { value: "no", text: "No" }] }
    })
    yield* post("questions", {
      name: "spans",
      title: "Spans",
      required: false,
      settings: { type: "span", field: "text", options: [{ value: "x", text: "X" }] }
    })
    yield* post("metadata-properties", { name: "group", title: "Group", settings: { type: "terms" } })
    yield* send("PUT", datasetPath(ds, "/publish"))
    const records: Array<Json> = []
    for (let start = 0; start < n; start += 500) {
      const batch = Array.from({ length: Math.min(500, n - start) }, (_, k) => {
        const i = start + k
        return { fields: { text: `record ${i}` }, metadata: { group: i % 5 < 3 ? "a" : "b" } }
      })
      records.push(...items(yield* send("POST", datasetPath(ds, "/records/bulk"), { items: batch })))
    }
    const [alice, bob] = [yield* userWith("annotator", [w]), yield* userWith("annotator", [w])]
    return { w, ds, records, alice, bob }
  })

const inGroup = (group: string) => ({
  filters: { and: [{ type: "terms" as const, scope: { entity: "metadata" as const, metadata_property: "group" }, values: [group] }] }
})
const yes = { label: { value: "yes" } }

const finished = settledJob

/** Alice's responses in the dataset, by record id. */
const responsesOf = (ds: { readonly id: string }, apiKey: string) =>
  Effect.gen(function*() {
    const found = new Map<string, Json>()
    for (let offset = 0;; offset += 1000) {
      const page = yield* send(
        "POST",
        `/api/v1/me/datasets/${ds.id}/records/search?include=responses&limit=1000&offset=${offset}`,
        {},
        apiKey
      )
      const hits = items(page)
      for (const hit of hits) {
        const record = hit.record as { id: string; responses: Array<Json> }
        for (const response of record.responses ?? []) found.set(record.id, response)
      }
      if (hits.length < 1000) return found
    }
  })


for (const [name, dialect, env] of serverSetups) {
  describe(name, () => {
    // On Redis, a key prefix of the suite's own, removed afterwards.
    const settings = testSettings()
    // Searches count exactly up to 100 matches only: the job's snapshot must not stop there.
    const server = serverWithJobSettings(dialect, { ...env, GLOSS_SEARCH_TRACK_TOTAL_HITS: "100" }, settings)
    layer(server, { excludeTestServices: true, timeout: 120_000 })("applying responses", (it) => {
      it.effect("answers every record the search matches, past the search's total bound; the job ends at done == total", () =>
        Effect.gen(function*() {
          const { alice, ds, records } = yield* dataset(300)
          const client = yield* clientFor(alice.user.api_key)
          const payload: ResponsesApply = { search: inGroup("a"), values: yes, status: "submitted" }
          const started = yield* client.responses.apply({ path: { id: ds.id }, payload })
          expect(started).toMatchObject({ status: "queued", progress: { done: 0, total: null, failed: 0, errors: [] } })
          const job = yield* finished(alice.user.api_key, started.id)
          expect(job).toEqual({ id: started.id, status: "finished", progress: { done: 180, total: 180, failed: 0, errors: [] } })
          const answered = yield* responsesOf(ds, alice.user.api_key)
          expect(answered.size).toBe(180)
          for (const [i, record] of records.entries()) {
            const response = answered.get(String(record.id))
            if (i % 5 < 3) expect(response).toMatchObject({ status: "submitted", values: yes, user_id: alice.user.id })
            else expect(response).toBeUndefined()
          }
          // The records' statuses were recomputed as for any submission.
          const completed = yield* send("POST", `/api/v1/datasets/${ds.id}/records/search?limit=1000`, {
            filters: { and: [{ type: "terms", scope: { entity: "record", property: "status" }, values: ["completed"] }] }
          })
          expect(items(completed)).toHaveLength(180)
        }))

      it.effect("the pending queue (records the caller has not answered) with exclusions; drafts need no answer", () =>
        Effect.gen(function*() {
          const { alice, ds, records } = yield* dataset(40)
          const client = yield* clientFor(alice.user.api_key)
          const first = String(records[0]?.id)
          yield* send("POST", `/api/v1/records/${first}/responses`, { status: "submitted", values: { label: { value: "no" } } }, alice.user.api_key)
          const pending = {
            filters: { and: [{ type: "terms" as const, scope: { entity: "response" as const, property: "status" as const }, values: ["pending"] }] }
          }
          const excluded = [RecordId.make(String(records[1]?.id)), RecordId.make(String(records[2]?.id))]
          const started = yield* client.responses.apply({
            path: { id: ds.id },
            payload: { search: { query: {}, ...pending }, values: { label: { value: "yes" } }, status: "draft", exclude: excluded }
          })
          const job = yield* finished(alice.user.api_key, started.id)
          expect(job.progress).toEqual({ done: 37, total: 37, failed: 0, errors: [] })
          const answered = yield* responsesOf(ds, alice.user.api_key)
          expect(answered.size).toBe(38)
          expect(answered.get(first)).toMatchObject({ status: "submitted", values: { label: { value: "no" } } })
          for (const id of excluded) expect(answered.get(id)).toBeUndefined()
          expect(answered.get(String(records[3]?.id))).toMatchObject({ status: "draft" })
        }))

      it.effect("applying the same answer again (as a retried job does) updates the same responses, none added", () =>
        Effect.gen(function*() {
          const { alice, ds } = yield* dataset(20)
          const client = yield* clientFor(alice.user.api_key)
          const payload: ResponsesApply = { search: inGroup("b"), values: yes, status: "submitted" }
          const first = yield* client.responses.apply({ path: { id: ds.id }, payload })
          expect((yield* finished(alice.user.api_key, first.id)).progress).toMatchObject({ done: 8, total: 8 })
          const before = yield* responsesOf(ds, alice.user.api_key)
          const again = yield* client.responses.apply({ path: { id: ds.id }, payload })
          expect((yield* finished(alice.user.api_key, again.id)).progress).toMatchObject({ done: 8, total: 8, failed: 0 })
          const after = yield* responsesOf(ds, alice.user.api_key)
          expect([...after.keys()].sort()).toEqual([...before.keys()].sort())
          for (const [record, response] of after) expect(response.id).toBe(before.get(record)?.id)
        }))

      it.effect("the answers given replace those questions' answers; a draft's other answers (its spans) stay", () =>
        Effect.gen(function*() {
          const { alice, ds, records } = yield* dataset(5)
          const client = yield* clientFor(alice.user.api_key)
          const drafted = String(records[0]?.id)
          const spans = { value: [{ label: "x", start: 0, end: 6 }] }
          yield* send("POST", `/api/v1/records/${drafted}/responses`, { status: "draft", values: { label: { value: "no" }, spans } }, alice.user.api_key)
          const started = yield* client.responses.apply({ path: { id: ds.id }, payload: { search: {}, values: yes, status: "submitted" } })
          expect((yield* finished(alice.user.api_key, started.id)).progress).toMatchObject({ done: 5, total: 5, failed: 0 })
          const answered = yield* responsesOf(ds, alice.user.api_key)
          expect(answered.get(drafted)).toMatchObject({ status: "submitted", values: { label: { value: "yes" }, spans } })
          expect(answered.get(String(records[1]?.id))).toMatchObject({ status: "submitted", values: yes })
        }))

      it.effect("the starter reads the job; another annotator gets 403", () =>
        Effect.gen(function*() {
          const { alice, bob, ds } = yield* dataset(5)
          const client = yield* clientFor(alice.user.api_key)
          const started = yield* client.responses.apply({
            path: { id: ds.id },
            payload: { search: {}, values: null, status: "discarded" }
          })
          expect((yield* finished(alice.user.api_key, started.id)).status).toBe("finished")
          const other = yield* clientFor(bob.user.api_key)
          yield* expectFailure(other.jobs.get({ path: { id: started.id } }), "Forbidden", "Operation not allowed")
        }))

      it.effect("bad values and span questions are 422; an unknown dataset 404; a user outside the workspace 403", () =>
        Effect.gen(function*() {
          const { alice, ds } = yield* dataset(3)
          const client = yield* clientFor(alice.user.api_key)
          const apply = (payload: ResponsesApply, id = ds.id) => client.responses.apply({ path: { id }, payload })
          yield* expectFailure(
            apply({ search: {}, values: { label: { value: "maybe" } }, status: "submitted" }),
            "Unprocessable"
          )
          yield* expectFailure(
            apply({ search: {}, values: {}, status: "submitted" }),
            "Unprocessable",
            "missing response values for submitted response"
          )
          const spans = yield* apply({
            search: {},
            values: { label: { value: "yes" }, spans: { value: [{ label: "x", start: 0, end: 1 }] } },
            status: "submitted"
          }).pipe(Effect.flip)
          expect(spans).toMatchObject({ _tag: "Unprocessable", detail: expect.stringMatching(/span questions cannot be applied/) })
          yield* expectFailure(apply({ search: { query: { text: { q: "x", field: "nope" } } }, values: yes, status: "submitted" }), "Unprocessable")
          const missing = DatasetId.make(crypto.randomUUID())
          yield* expectFailure(apply({ search: {}, values: yes, status: "submitted" }, missing), "NotFound", `Dataset with id \`${missing}\` not found`)
          const outsider = yield* clientFor((yield* userWith("annotator")).user.api_key)
          yield* expectFailure(
            outsider.responses.apply({ path: { id: ds.id }, payload: { search: {}, values: yes, status: "submitted" } }),
            "Forbidden"
          )
        }))
    })
  })
}

import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Dataset } from "../../src/domain/Dataset.js"
import { dialects } from "../support/databases.js"
import { datasetPath, draftDataset, publishedDataset, send } from "../support/datasets.js"
import { expectFailure } from "../support/expect.js"
import { userWith, workspace } from "../support/fixtures.js"
import { ownerClient, TestServerLive } from "../support/server.js"

const labels = (n: number) => Array.from({ length: n }, (_, i) => ({ value: `l${i}`, text: `Label ${i}` }))
const ratings = (n: number) => Array.from({ length: n }, (_, i) => ({ value: i }))

const post = (dataset: Dataset, kind: string, body: unknown) => send("POST", datasetPath(dataset, `/${kind}`), body)
const question = (dataset: Dataset, name: string, settings: unknown, extra: Record<string, unknown> = {}) =>
  post(dataset, "questions", { name, title: name, settings, ...extra })
const statusOf = (response: { readonly status: number }) => response.status

/** A draft with a text field `text`, an image field `image`. */
const draftWithFields = Effect.gen(function*() {
  const dataset = yield* draftDataset()
  yield* post(dataset, "fields", { name: "text", title: "Text", settings: { type: "text" } })
  yield* post(dataset, "fields", { name: "image", title: "Image", settings: { type: "image" } })
  return dataset
})

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 60_000 })("dataset settings", (it) => {
      it.effect("fields of every kind are created with their settings' defaults and listed in order", () =>
        Effect.gen(function*() {
          const dataset = yield* draftDataset()
          const created = []
          for (
            const settings of [{ type: "text" }, { type: "image" }, { type: "chat" }, { type: "custom", template: "<b>{{record.fields.x}}</b>" }]
          ) {
            const response = yield* post(dataset, "fields", { name: `f-${settings.type}`, title: "T", settings, description: "ignored" })
            expect(response.status).toBe(201)
            created.push(response.body as { settings: unknown; required: boolean })
          }
          expect(created.map((f) => f.settings)).toEqual([
            { type: "text", use_markdown: false },
            { type: "image" },
            { type: "chat", use_markdown: true },
            { type: "custom", template: "<b>{{record.fields.x}}</b>", advanced_mode: false }
          ])
          expect(created.every((f) => f.required === false)).toBe(true)
          const list = yield* (yield* ownerClient).fields.list({ path: { id: dataset.id } })
          expect(list.items.map((f) => f.name)).toEqual(["f-text", "f-image", "f-chat", "f-custom"])
        }))

      it.effect("field names follow the pattern and are unique per dataset (422, 409)", () =>
        Effect.gen(function*() {
          const dataset = yield* draftDataset()
          const field = (name: string) => post(dataset, "fields", { name, title: "T", settings: { type: "text" } })
          for (const bad of ["Upper", "has space", "-", "_", "__", "", "x".repeat(201), "a.b"]) {
            expect({ bad, status: statusOf(yield* field(bad)) }).toEqual({ bad, status: 422 })
          }
          for (const good of ["a", "_a", "-a-", "a_1-b", "9"]) expect(statusOf(yield* field(good))).toBe(201)
          const duplicate = yield* field("a")
          expect(duplicate.status).toBe(409)
          expect(duplicate.body).toEqual({ detail: `Field with name \`a\` already exists for dataset with id \`${dataset.id}\`` })
          expect(statusOf(yield* post(dataset, "fields", { name: "t", title: "", settings: { type: "text" } }))).toBe(422)
          expect(statusOf(yield* post(dataset, "fields", { name: "t", title: "T", settings: { type: "audio" } }))).toBe(422)
        }))

      it.effect("fields: created and deleted only while draft; title and settings editable any time; type fixed", () =>
        Effect.gen(function*() {
          const dataset = yield* publishedDataset()
          const owner = yield* ownerClient
          const [field] = (yield* owner.fields.list({ path: { id: dataset.id } })).items
          const created = yield* post(dataset, "fields", { name: "late", title: "Late", settings: { type: "text" } })
          expect(created.body).toEqual({ detail: "Field cannot be created for a published dataset" })
          const updated = yield* send("PATCH", `/api/v1/fields/${field?.id}`, { title: "New", settings: { type: "text", use_markdown: true } })
          expect(updated.body).toMatchObject({ title: "New", settings: { type: "text", use_markdown: true } })
          const retyped = yield* send("PATCH", `/api/v1/fields/${field?.id}`, { settings: { type: "image" } })
          expect(retyped.status).toBe(422)
          expect(retyped.body).toEqual({ detail: "Field type cannot be changed. Expected 'text' but got 'image'" })
          const deleted = yield* send("DELETE", `/api/v1/fields/${field?.id}`)
          expect(deleted.body).toEqual({ detail: "Fields cannot be deleted for a published dataset" })
          const draft = yield* draftDataset()
          const doomed = yield* post(draft, "fields", { name: "doomed", title: "D", settings: { type: "text" } })
          expect(statusOf(yield* send("DELETE", `/api/v1/fields/${(doomed.body as { id: string }).id}`))).toBe(200)
        }))

      it.effect("rating questions take 2 to 11 options valued 0 to 10, without repeats", () =>
        Effect.gen(function*() {
          const dataset = yield* draftWithFields
          const rating = (name: string, options: unknown) => question(dataset, name, { type: "rating", options })
          expect(statusOf(yield* rating("r1", ratings(1)))).toBe(422)
          expect(statusOf(yield* rating("r2", ratings(2)))).toBe(201)
          expect(statusOf(yield* rating("r11", ratings(11)))).toBe(201)
          expect(statusOf(yield* rating("r12", ratings(12)))).toBe(422)
          expect(statusOf(yield* rating("neg", [{ value: -1 }, { value: 1 }]))).toBe(422)
          expect(statusOf(yield* rating("eleven", [{ value: 1 }, { value: 11 }]))).toBe(422)
          expect(statusOf(yield* rating("float", [{ value: 1.5 }, { value: 2 }]))).toBe(422)
          const repeated = yield* rating("rep", [{ value: 3 }, { value: 3 }])
          expect(repeated.status).toBe(422)
          expect(JSON.stringify(repeated.body)).toContain("option values must be unique, found 3 more than once")
        }))

      it.effect("label and multi-label questions: 2 options up to GLOSS_LABEL_SELECTION_OPTIONS_MAX_ITEMS (500)", () =>
        Effect.gen(function*() {
          const dataset = yield* draftWithFields
          for (const type of ["label_selection", "multi_label_selection"]) {
            expect(statusOf(yield* question(dataset, `${type}-1`, { type, options: labels(1) }))).toBe(422)
            const two = yield* question(dataset, `${type}-2`, { type, options: labels(2) })
            expect(two.status).toBe(201)
            expect(statusOf(yield* question(dataset, `${type}-500`, { type, options: labels(500) }))).toBe(201)
            const over = yield* question(dataset, `${type}-501`, { type, options: labels(501) })
            expect(over.status).toBe(422)
            expect(JSON.stringify(over.body)).toContain("at most 500 options are allowed (GLOSS_LABEL_SELECTION_OPTIONS_MAX_ITEMS), got 501")
          }
          const multi = yield* question(dataset, "multi", { type: "multi_label_selection", options: labels(3) })
          expect(multi.body).toMatchObject({
            settings: { type: "multi_label_selection", visible_options: null, options_order: "natural" },
            required: false,
            description: null
          })
          expect((multi.body as { settings: { options: Array<unknown> } }).settings.options[0]).toEqual({
            value: "l0",
            text: "Label 0",
            description: null
          })
          const repeated = yield* question(dataset, "rep", { type: "label_selection", options: [{ value: "a", text: "A" }, { value: "a", text: "B" }] })
          expect(JSON.stringify(repeated.body)).toContain("option values must be unique, found \\\"a\\\" more than once")
          for (const [visible, status] of [[2, 422], [3, 201], [4, 422]] as const) {
            const response = yield* question(dataset, `vis-${visible}`, { type: "label_selection", options: labels(3), visible_options: visible })
            expect({ visible, status: response.status }).toEqual({ visible, status })
          }
          expect(statusOf(yield* question(dataset, "order", { type: "multi_label_selection", options: labels(2), options_order: "random" }))).toBe(422)
        }))

      it.effect("ranking questions take 2 to 50 options; text questions default to plain text", () =>
        Effect.gen(function*() {
          const dataset = yield* draftWithFields
          expect(statusOf(yield* question(dataset, "rank1", { type: "ranking", options: labels(1) }))).toBe(422)
          expect(statusOf(yield* question(dataset, "rank50", { type: "ranking", options: labels(50) }))).toBe(201)
          expect(statusOf(yield* question(dataset, "rank51", { type: "ranking", options: labels(51) }))).toBe(422)
          const text = yield* question(dataset, "comment", { type: "text" }, { description: "Say why", required: true })
          expect(text.body).toMatchObject({ settings: { type: "text", use_markdown: false }, description: "Say why", required: true })
        }))

      it.effect("span questions refer to one text field each, up to GLOSS_SPAN_OPTIONS_MAX_ITEMS options", () =>
        Effect.gen(function*() {
          const dataset = yield* draftWithFields
          const span = (name: string, field: string, options = labels(2), extra = {}) =>
            question(dataset, name, { type: "span", field, options, ...extra })
          const missing = yield* span("s0", "nope")
          expect(missing.status).toBe(422)
          expect(missing.body).toEqual({
            detail: `Span question needs a text field, but dataset with id \`${dataset.id}\` has no text field named \`nope\``
          })
          expect(statusOf(yield* span("s-img", "image"))).toBe(422)
          const created = yield* span("s1", "text", labels(1))
          expect(created.status).toBe(201)
          expect(created.body).toMatchObject({
            settings: { type: "span", field: "text", allow_overlapping: false, allow_character_annotation: true, visible_options: null }
          })
          const second = yield* span("s2", "text")
          expect(second.body).toEqual({ detail: "Field `text` is already used by span question `s1`" })
          const other = yield* draftWithFields
          expect(statusOf(yield* question(other, "s500", { type: "span", field: "text", options: labels(500) }))).toBe(201)
          const over = yield* draftWithFields
          const tooMany = yield* question(over, "s501", { type: "span", field: "text", options: labels(501) })
          expect(JSON.stringify(tooMany.body)).toContain("at most 500 options are allowed (GLOSS_SPAN_OPTIONS_MAX_ITEMS), got 501")
        }))

      it.effect("question names: pattern, and a duplicate is 409 before the published check", () =>
        Effect.gen(function*() {
          const dataset = yield* draftWithFields
          for (const bad of ["Bad", "a b", "-"]) expect(statusOf(yield* question(dataset, bad, { type: "text" }))).toBe(422)
          const published = yield* publishedDataset()
          const duplicate = yield* question(published, "label", { type: "text" })
          expect(duplicate.status).toBe(409)
          const late = yield* question(published, "new-one", { type: "text" })
          expect(late.body).toEqual({ detail: "questions cannot be created for a published dataset" })
        }))

      it.effect("question updates: title, description, settings within the rules; never the type or the option set", () =>
        Effect.gen(function*() {
          const dataset = yield* draftWithFields
          const label = yield* question(dataset, "label", { type: "label_selection", options: labels(3) })
          const span = yield* question(dataset, "span", { type: "span", field: "text", options: labels(2) })
          const labelId = (label.body as { id: string }).id
          const spanId = (span.body as { id: string }).id
          const patch = (id: string, body: unknown) => send("PATCH", `/api/v1/questions/${id}`, body)
          const reordered = [{ value: "l2", text: "Two" }, { value: "l0", text: "Zero" }, { value: "l1", text: "One", description: "d" }]
          const ok = yield* patch(labelId, { title: "Pick", description: "why", settings: { type: "label_selection", options: reordered, visible_options: 3 } })
          expect(ok.status).toBe(200)
          expect(ok.body).toMatchObject({ title: "Pick", description: "why", settings: { visible_options: 3 } })
          expect((ok.body as { settings: { options: Array<{ value: string }> } }).settings.options.map((o) => o.value)).toEqual(["l2", "l0", "l1"])
          const retyped = yield* patch(labelId, { settings: { type: "text" } })
          expect(retyped.body).toEqual({ detail: "Question type cannot be changed. Expected 'label_selection' but got 'text'" })
          const changed = yield* patch(labelId, { settings: { type: "label_selection", options: labels(2) } })
          expect(changed.status).toBe(422)
          expect((changed.body as { detail: string }).detail).toContain("not added or removed")
          expect(statusOf(yield* patch(labelId, { settings: { type: "label_selection", visible_options: 4 } }))).toBe(422)
          expect(statusOf(yield* patch(spanId, { settings: { type: "span", allow_overlapping: true } }))).toBe(200)
          const back = yield* patch(spanId, { settings: { type: "span", allow_overlapping: false } })
          expect(back.body).toEqual({ detail: "allow_overlapping cannot be changed from true to false" })
          expect(statusOf(yield* patch(labelId, { title: null }))).toBe(422)
          const published = yield* publishedDataset()
          const [q] = (yield* (yield* ownerClient).questions.list({ path: { id: published.id } })).items
          expect(statusOf(yield* patch(q?.id ?? "", { title: "Still editable" }))).toBe(200)
          const deleted = yield* send("DELETE", `/api/v1/questions/${q?.id}`)
          expect(deleted.body).toEqual({ detail: "questions cannot be deleted for a published dataset" })
          expect(statusOf(yield* send("DELETE", `/api/v1/questions/${labelId}`))).toBe(200)
        }))

      it.effect("metadata properties: terms (1–250 values), integer and float (min < max), on drafts and published", () =>
        Effect.gen(function*() {
          const dataset = yield* publishedDataset()
          const property = (name: string, settings: unknown, extra = {}) =>
            post(dataset, "metadata-properties", { name, title: name, settings, ...extra })
          expect(statusOf(yield* property("t0", { type: "terms", values: [] }))).toBe(422)
          const terms = yield* property("t1", { type: "terms", values: ["a", "b"] })
          expect(terms.status).toBe(201)
          expect(terms.body).toMatchObject({ settings: { type: "terms", values: ["a", "b"] }, visible_for_annotators: true })
          expect(statusOf(yield* property("t250", { type: "terms", values: Array.from({ length: 250 }, (_, i) => i) }))).toBe(201)
          expect(statusOf(yield* property("t251", { type: "terms", values: Array.from({ length: 251 }, (_, i) => i) }))).toBe(422)
          expect((yield* property("tnull", { type: "terms" })).body).toMatchObject({ settings: { type: "terms", values: null } })
          expect(statusOf(yield* property("i-eq", { type: "integer", min: 5, max: 5 }))).toBe(422)
          expect(statusOf(yield* property("i-frac", { type: "integer", min: 0.5 }))).toBe(422)
          expect((yield* property("i", { type: "integer", min: 0, max: 10 })).body).toMatchObject({ settings: { type: "integer", min: 0, max: 10 } })
          expect((yield* property("f", { type: "float", max: 1.5 })).body).toMatchObject({ settings: { type: "float", min: null, max: 1.5 } })
          expect(statusOf(yield* property("f-bad", { type: "float", min: 2, max: 1 }))).toBe(422)
          const duplicate = yield* property("t1", { type: "terms" })
          expect(duplicate.status).toBe(409)
          expect(statusOf(yield* property("Bad Name", { type: "terms" }))).toBe(422)
        }))

      it.effect("metadata visibility: annotators see only properties visible for them; updates and deletes", () =>
        Effect.gen(function*() {
          const w = yield* workspace()
          const dataset = yield* publishedDataset(w)
          const annotator = yield* userWith("annotator", [w])
          const admin = yield* userWith("admin", [w])
          const visible = yield* post(dataset, "metadata-properties", { name: "shown", title: "Shown", settings: { type: "terms" } })
          const hidden = yield* post(dataset, "metadata-properties", { name: "hidden", title: "Hidden", settings: { type: "integer" }, visible_for_annotators: false })
          const hiddenId = (hidden.body as { id: string }).id
          const names = (list: { items: ReadonlyArray<{ name: string }> }) => list.items.map((p) => p.name)
          expect(names(yield* annotator.client.metadataProperties.listMine({ path: { id: dataset.id } }))).toEqual(["shown"])
          expect(names(yield* admin.client.metadataProperties.listMine({ path: { id: dataset.id } }))).toEqual(["shown", "hidden"])
          expect(statusOf(yield* send("GET", `/api/v1/metadata-properties/${hiddenId}`, undefined, annotator.user.api_key))).toBe(403)
          expect(statusOf(yield* send("GET", `/api/v1/metadata-properties/${(visible.body as { id: string }).id}`, undefined, annotator.user.api_key))).toBe(200)
          const updated = yield* send("PATCH", `/api/v1/metadata-properties/${hiddenId}`, { title: "Now shown", visible_for_annotators: true })
          expect(updated.body).toMatchObject({ title: "Now shown", visible_for_annotators: true })
          expect(names(yield* annotator.client.metadataProperties.listMine({ path: { id: dataset.id } }))).toEqual(["shown", "hidden"])
          expect(statusOf(yield* send("PATCH", `/api/v1/metadata-properties/${hiddenId}`, { title: "x" }, annotator.user.api_key))).toBe(403)
          expect(statusOf(yield* send("DELETE", `/api/v1/metadata-properties/${hiddenId}`))).toBe(200)
          expect(statusOf(yield* send("DELETE", `/api/v1/metadata-properties/${hiddenId}`))).toBe(404)
        }))

      it.effect("vector settings: dimensions > 0, names unique, at most 5 per dataset, title editable", () =>
        Effect.gen(function*() {
          const dataset = yield* publishedDataset()
          const vector = (name: string, dimensions: unknown) => post(dataset, "vectors-settings", { name, title: name, dimensions })
          expect(statusOf(yield* vector("zero", 0))).toBe(422)
          expect(statusOf(yield* vector("frac", 1.5))).toBe(422)
          const first = yield* vector("Embedding A", 384)
          expect(first.status).toBe(201)
          expect(first.body).toMatchObject({ name: "Embedding A", dimensions: 384, dataset_id: dataset.id })
          expect(statusOf(yield* vector("Embedding A", 3))).toBe(409)
          for (const n of [2, 3, 4, 5]) expect(statusOf(yield* vector(`v${n}`, n))).toBe(201)
          const sixth = yield* vector("v6", 6)
          expect(sixth.status).toBe(422)
          expect(sixth.body).toEqual({
            detail: `The maximum number of vector settings has been reached for dataset with id \`${dataset.id}\` (5)`
          })
          const id = (first.body as { id: string }).id
          expect((yield* send("PATCH", `/api/v1/vectors-settings/${id}`, { title: "Renamed" })).body).toMatchObject({ title: "Renamed", name: "Embedding A" })
          expect(statusOf(yield* send("DELETE", `/api/v1/vectors-settings/${id}`))).toBe(200)
          expect(statusOf(yield* vector("v6", 6))).toBe(201)
        }))

      it.effect("roles: annotators read settings of their datasets but change nothing; outsiders read nothing", () =>
        Effect.gen(function*() {
          const w = yield* workspace()
          const dataset = yield* publishedDataset(w)
          const annotator = yield* userWith("annotator", [w])
          const admin = yield* userWith("admin", [w])
          const outsider = yield* userWith("admin")
          for (const kind of ["fields", "questions", "vectors-settings", "metadata-properties"]) {
            expect(statusOf(yield* send("GET", datasetPath(dataset, `/${kind}`), undefined, annotator.user.api_key))).toBe(200)
            expect(statusOf(yield* send("GET", datasetPath(dataset, `/${kind}`), undefined, outsider.user.api_key))).toBe(403)
          }
          yield* expectFailure(
            annotator.client.vectorSettings.create({ path: { id: dataset.id }, payload: { name: "v", title: "v", dimensions: 2 } }),
            "Forbidden"
          )
          yield* expectFailure(
            outsider.client.metadataProperties.create({ path: { id: dataset.id }, payload: { name: "m", title: "m", settings: { type: "terms" } } }),
            "Forbidden"
          )
          const [field] = (yield* admin.client.fields.list({ path: { id: dataset.id } })).items
          expect((yield* admin.client.fields.update({ path: { id: field!.id }, payload: { title: "By admin" } })).title).toBe("By admin")
          yield* expectFailure(annotator.client.fields.update({ path: { id: field!.id }, payload: { title: "x" } }), "Forbidden")
          const [q] = (yield* annotator.client.questions.list({ path: { id: dataset.id } })).items
          yield* expectFailure(annotator.client.questions.update({ path: { id: q!.id }, payload: { title: "x" } }), "Forbidden")
        }))
    })

    layer(
      TestServerLive(dialect, { GLOSS_LABEL_SELECTION_OPTIONS_MAX_ITEMS: "1000", GLOSS_SPAN_OPTIONS_MAX_ITEMS: "3" }),
      { excludeTestServices: true, timeout: 60_000 }
    )("configured option limits", (it) => {
      it.effect("raising the label maximum allows more options; lowering the span maximum allows fewer", () =>
        Effect.gen(function*() {
          const dataset = yield* draftWithFields
          expect(statusOf(yield* question(dataset, "l1000", { type: "label_selection", options: labels(1000) }))).toBe(201)
          expect(statusOf(yield* question(dataset, "l1001", { type: "label_selection", options: labels(1001) }))).toBe(422)
          expect(statusOf(yield* question(dataset, "s4", { type: "span", field: "text", options: labels(4) }))).toBe(422)
          expect(statusOf(yield* question(dataset, "s3", { type: "span", field: "text", options: labels(3) }))).toBe(201)
        }))
    })
  })
}

/**
 * The permission matrix: every operation of the OpenAPI document, called by every kind of caller, against what
 * src/services/Policy.ts grants. Each operation has one row below saying which Policy actions it needs (or that it
 * is public, or open to anyone signed in); an operation without a row fails the test, so a new endpoint must be
 * classified. Expected: 401 without valid credentials, 403 when the policy denies, and when it allows a 2xx (or a
 * status the row names as being about the input). Never a 5xx.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { type Action, grantOf } from "../../src/services/Policy.js"
import { dialects } from "../support/databases.js"
import { unique } from "../support/fixtures.js"
import {
  type Case,
  type Cell,
  describeAccess,
  judgeCell,
  type Line,
  operations,
  render,
  type Request,
  send
} from "../support/permissionMatrix.js"
import { ANSWER, call, type Json, makeWorld, type World } from "../support/permissionWorld.js"
import { OWNER, raw, TestServerLive } from "../support/server.js"

const none = () => ({})
const open = (request: Case["request"] = none, accept: ReadonlyArray<number> = []): Case => ({
  access: "public",
  request,
  accept
})
const anyone = (request: Case["request"] = none, check?: Case["check"]): Case => ({
  access: "signedIn",
  request,
  ...(check ? { check } : {})
})
const needs = (actions: Action | ReadonlyArray<Action>, request: Case["request"], extra: Partial<Case> = {}): Case => ({
  access: { all: typeof actions === "string" ? [actions] : actions },
  request,
  ...extra
})

const dataset = (w: World) => ({ params: { id: w.dataset } })
const record = (w: World) => ({ params: { id: w.record.id } })
const fresh = <A, R>(effect: Effect.Effect<A, never, R>, f: (a: A) => Request) => Effect.map(effect, f)
const items = (body: unknown) => ((body as Json).items ?? []) as ReadonlyArray<Json>

/** A list shows the W1 item `id` to W1's members (and owners) only. */
const listsW1 = (pick: (world: World) => string): Case["check"] => (body, caller, world) => {
  const shown = items(body).some((item) => item.id === pick(world))
  return shown === caller.member ? undefined : `${shown ? "shows" : "hides"} ${pick(world)}`
}

/** An invitation into `workspace`, made by the owner: its id. */
const ownersInvitation = (workspace: string) => Effect.map(
  raw("/api/gloss/invitations", {
    method: "POST",
    headers: { "content-type": "application/json", "x-gloss-api-key": OWNER.apiKey },
    body: JSON.stringify({ role: "annotator", workspace_ids: [workspace] })
  }),
  (response) => String((response.body as Json).id)
)

/** A new member of `workspace` the owner names a reviewer there: their id. */
const namedReviewer = <R>(workspace: string, user: Effect.Effect<string, never, R>) =>
  Effect.tap(user, (id) =>
    raw(`/api/gloss/workspaces/${workspace}/reviewers`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-gloss-api-key": OWNER.apiKey },
      body: JSON.stringify({ user_id: id })
    }))

/** The API key of a new owner. */
const secondOwnerKey = Effect.map(
  call("POST", "/users", { first_name: "Second", username: unique("owner"), password: "password-1234", role: "owner" }),
  (user) => String(user.api_key)
)

/** One row per operation id (several cases when the answer depends on the target). */
const table: Readonly<Record<string, Case | ReadonlyArray<Case>>> = {
  "info.version": open(),
  "info.status": open(),
  "info.settings": open(),
  "health.live": open(),
  "health.ready": open(),
  "auth.token": open(() => ({ form: { username: OWNER.username, password: OWNER.password } })),
  "oauth2.providers": open(),
  // OAuth is not configured here: no provider exists.
  "oauth2.authentication": open(() => ({ params: { provider: "huggingface" } }), [404]),
  "oauth2.accessToken": open(() => ({ params: { provider: "huggingface" }, query: "code=c&state=s" }), [404, 422]),
  "me.me": anyone(),
  "me.workspaces": anyone(none, listsW1((w) => w.w1)),
  "users.list": needs("users.manage", none),
  "users.create": needs("users.manage", () => ({
    json: { first_name: "New", username: unique("new"), password: "password-1234", role: "annotator" }
  })),
  "users.get": needs("users.manage", (w) => ({ params: { id: String(w.caller("annotatorMember").id) } })),
  "users.update": needs("users.manage", (w) =>
    fresh(w.freshUser(), (id) => ({ params: { id }, json: { first_name: "Renamed" } }))),
  "users.delete": needs("users.manage", (w) => fresh(w.freshUser(), (id) => ({ params: { id } }))),
  "users.workspaces": needs("users.manage", (w) => ({ params: { id: String(w.caller("annotatorMember").id) } })),
  "jobs.get": needs("jobs.read", (w) => ({ params: { id: w.job } })),
  "workspaces.create": needs("workspaces.create", () => ({ json: { name: unique("made") } })),
  "workspaces.get": needs("workspaces.get", (w) => ({ params: { id: w.w1 } })),
  "workspaces.delete": needs("workspaces.delete", (w) => fresh(w.freshWorkspace, (id) => ({ params: { id } }))),
  "workspaces.listUsers": needs("workspaces.listUsers", (w) => ({ params: { id: w.w1 } })),
  "workspaces.addUser": needs("workspaces.addUser", (w) =>
    fresh(w.freshUser(), (user) => ({ params: { id: w.w1 }, json: { user_id: user } }))),
  "workspaces.removeUser": needs("workspaces.removeUser", (w) =>
    fresh(w.freshUser(w.w1), (user) => ({ params: { id: w.w1, user_id: user } }))),
  "datasets.listMine": [
    anyone(none, listsW1((w) => w.dataset)),
    { ...needs("datasets.listInWorkspace", (w) => ({ query: `workspace_id=${w.w1}` })), note: "?workspace_id=W1" }
  ],
  "datasets.create": needs("datasets.create", (w) => ({ json: { name: unique("new"), workspace_id: w.w1 } })),
  "datasets.get": needs("datasets.read", dataset),
  // The Hub is a closed port here (HF_ENDPOINT below): the jobs these start fail without touching the world.
  "datasets.exportToHub": needs("datasets.manage", (w) => ({ ...dataset(w), json: { name: "org/matrix", token: "hf_matrix" } })),
  "datasets.importFromHub": needs("datasets.manage", (w) => ({
    ...dataset(w),
    json: { name: "org/matrix", subset: "default", split: "train", mapping: { fields: [{ source: "text", target: "text" }] } }
  })),
  // An export of every record (the world's dataset is small); whoever may list all of them may export.
  "exports.start": needs("records.list", (w) => ({ ...dataset(w), json: { format: "jsonl" } })),
  // Not an export's job: 404 for anyone signed in. Who may download a real one (its starter, owners; 404 for anyone
  // else) is test/http/exports.test.ts.
  "exports.download": { access: "signedIn", request: (w) => ({ params: { id: w.job } }), accept: [404], note: "not an export" },
  "datasets.update": needs("datasets.manage", (w) => ({ ...dataset(w), json: { guidelines: "Read twice" } })),
  "datasets.delete": needs("datasets.manage", (w) => fresh(w.freshDraft, ({ id }) => ({ params: { id } }))),
  "datasets.publish": needs("datasets.manage", (w) =>
    Effect.gen(function*() {
      const { id } = yield* w.freshDraft
      yield* call("POST", `/datasets/${id}/questions`, {
        name: "ok",
        title: "OK?",
        required: true,
        settings: { type: "label_selection", options: [{ value: "y", text: "Y" }, { value: "n", text: "N" }] }
      })
      return { params: { id } }
    })),
  "fields.list": needs("datasets.read", dataset),
  "fields.create": needs("datasets.manage", (w) => ({
    params: { id: w.draft },
    json: { name: unique("f"), title: "F", settings: { type: "text" } }
  })),
  "fields.update": needs("datasets.manage", (w) => ({ params: { id: w.field }, json: { title: "The text" } })),
  "fields.delete": needs("datasets.manage", (w) => fresh(w.freshDraft, ({ field }) => ({ params: { id: field } }))),
  "questions.list": needs("datasets.read", dataset),
  "questions.create": needs("datasets.manage", (w) => ({
    params: { id: w.draft },
    json: { name: unique("q"), title: "Q", required: false, settings: { type: "text" } }
  })),
  "questions.update": needs("datasets.manage", (w) => ({ params: { id: w.questions.label }, json: { title: "The label" } })),
  "questions.delete": needs("datasets.manage", (w) =>
    Effect.gen(function*() {
      const { id } = yield* w.freshDraft
      const question = yield* call("POST", `/datasets/${id}/questions`, { name: "q", title: "Q", settings: { type: "text" } })
      return { params: { id: String(question.id) } }
    })),
  "metadataProperties.listMine": needs("datasets.read", dataset),
  "metadataProperties.list": needs("datasets.read", dataset),
  "metadataProperties.create": needs("datasets.manage", (w) => ({
    params: { id: w.draft },
    json: { name: unique("m"), title: "M", settings: { type: "float" } }
  })),
  "metadataProperties.get": [
    { ...needs("datasets.read", (w) => ({ params: { id: w.metadata.visible } })), note: "visible" },
    { ...needs(["datasets.read", "metadata.readHidden"], (w) => ({ params: { id: w.metadata.hidden } })), note: "hidden" }
  ],
  "metadataProperties.update": needs("datasets.manage", (w) => ({ params: { id: w.metadata.visible }, json: { title: "Kind" } })),
  "metadataProperties.delete": needs("datasets.manage", (w) =>
    Effect.gen(function*() {
      const property = yield* call("POST", `/datasets/${w.draft}/metadata-properties`, {
        name: unique("gone"),
        title: "Gone",
        settings: { type: "integer" }
      })
      return { params: { id: String(property.id) } }
    })),
  "vectorSettings.list": needs("datasets.read", dataset),
  "vectorSettings.create": needs("datasets.manage", (w) => ({
    params: { id: w.draft },
    json: { name: unique("v"), title: "V", dimensions: 2 }
  })),
  "vectorSettings.update": needs("datasets.manage", (w) => ({ params: { id: w.vectors }, json: { title: "Embedding" } })),
  "vectorSettings.delete": needs("datasets.manage", (w) =>
    Effect.gen(function*() {
      const { id } = yield* w.freshDraft
      const vectors = yield* call("POST", `/datasets/${id}/vectors-settings`, { name: "v", title: "V", dimensions: 2 })
      return { params: { id: String(vectors.id) } }
    })),
  "records.list": needs("records.list", dataset),
  "records.deleteMany": needs("records.write", (w) =>
    fresh(w.freshRecord, (r) => ({ params: { id: w.dataset }, query: `ids=${r.id}` }))),
  "records.bulkCreate": needs("records.write", (w) => ({ ...dataset(w), json: { items: [{ fields: { text: "new" } }] } })),
  "records.bulkUpsert": needs("records.write", (w) => ({ ...dataset(w), json: { items: [{ fields: { text: "upserted" } }] } })),
  "records.get": needs("records.read", record),
  "records.update": needs("records.write", (w) => ({ ...record(w), json: { metadata: { genre: "blog", cost: 3 } } })),
  "records.delete": needs("records.write", (w) => fresh(w.freshRecord, (r) => ({ params: { id: r.id } }))),
  "responses.create": needs(["records.read", "responses.create"], (w) =>
    fresh(w.freshRecord, (r) => ({ params: { id: r.id }, json: ANSWER }))),
  // Authors may change their own response; anyone else needs `responses.manageOthers`.
  "responses.update": (["annotatorMember", "adminMember"] as const).map((author): Case => ({
    access: { all: ["responses.manageOthers"], author },
    note: `by ${author}`,
    request: (w) => ({ params: { id: author === "adminMember" ? w.responses.admin : w.responses.annotator }, json: ANSWER })
  })),
  "responses.delete": (["annotatorMember", "adminMember"] as const).map((author): Case => ({
    access: { all: ["responses.manageOthers"], author },
    note: `by ${author}`,
    request: (w) =>
      Effect.gen(function*() {
        const r = yield* w.freshRecord
        return { params: { id: yield* w.answer(r.id, author) } }
      })
  })),
  // Always 200: each item says whether it was allowed.
  "responses.bulk": needs(["records.read", "responses.create"], (w) => ({
    json: { items: [{ record_id: w.record.id, ...ANSWER }] }
  }), { judge: (body) => items(body)[0]?.error === null }),
  // A search that matches nothing: the job it starts leaves the world's records as they are.
  "responses.apply": needs(["records.searchOwn", "responses.create"], (w) => ({
    ...dataset(w),
    json: { search: { query: { text: { q: "nothing-matches-this" } } }, ...ANSWER }
  })),
  "suggestions.list": needs("records.read", record),
  "suggestions.upsert": needs("suggestions.write", (w) => ({
    ...record(w),
    json: { question_id: w.questions.label, value: "yes", agent: "model-1", score: 0.9 }
  })),
  "suggestions.deleteMany": needs("suggestions.write", (w) =>
    fresh(w.freshRecord, (r) => ({ params: { id: r.id }, query: `ids=${r.suggestion}` }))),
  "suggestions.delete": needs("suggestions.write", (w) => fresh(w.freshRecord, (r) => ({ params: { id: r.suggestion } }))),
  "progress.dataset": needs("datasets.read", dataset, {
    // Only those who may see other people's progress get their names.
    check: (body, caller) => {
      const names = ((body as Json).users as ReadonlyArray<Json>).map((u) => u.username)
      const seesOthers = caller.role !== undefined && grantOf(caller.role, "progress.others") !== "no"
      return seesOthers || names.every((n) => n === caller.username) ? undefined : `users shows ${names.join(", ")}`
    }
  }),
  "progress.users": needs("progress.others", dataset),
  "progress.mine": needs("datasets.read", dataset),
  "search.mine": needs("records.searchOwn", (w) => ({ ...dataset(w), json: {} })),
  "search.all": needs("records.searchAll", (w) => ({ ...dataset(w), json: {} })),
  "search.metadataMetrics": [
    { ...needs("datasets.read", (w) => ({ params: { id: w.metadata.visible } })), note: "visible" },
    { ...needs(["datasets.read", "metadata.readHidden"], (w) => ({ params: { id: w.metadata.hidden } })), note: "hidden" }
  ],
  "search.suggestionsOptions": needs("datasets.read", dataset),
  "webhooks.list": needs("webhooks.manage", none),
  "webhooks.create": needs("webhooks.manage", () => ({
    json: { url: "http://127.0.0.1:9/made", events: ["dataset.published"] }
  })),
  "webhooks.update": needs("webhooks.manage", (w) => ({ params: { id: w.webhook }, json: { description: "Nobody listens" } })),
  // A fresh webhook only for callers the policy lets delete it: the others' would pile up past the 10 allowed.
  "webhooks.delete": needs("webhooks.manage", (w, caller) =>
    caller.role !== undefined && grantOf(caller.role, "webhooks.manage") === "yes"
      ? fresh(call("POST", "/webhooks", { url: "http://127.0.0.1:9/gone", events: ["dataset.published"] }), (hook) => ({
        params: { id: String(hook.id) }
      }))
      : { params: { id: w.webhook } }),
  "webhooks.ping": needs("webhooks.manage", (w) => ({ params: { id: w.webhook } })),
  // Gloss's team endpoints (/api/gloss). The owner exists, so a set-up answers 409 to everyone.
  "setup.status": open(),
  "setup.create": open(() => ({ json: { username: unique("late"), password: "password-1234", workspace: unique("late") } }), [409]),
  "invitations.create": needs("invitations.create", (w) => ({ json: { role: "annotator", workspace_ids: [w.w1] } })),
  "invitations.list": needs("invitations.list", none),
  // A fresh invitation into W1: an admin outside W1 is not shown it (404), as for an id that does not exist.
  "invitations.revoke": needs("invitations.list", (w) => fresh(ownersInvitation(w.w1), (id) => ({ params: { id } })), { accept: [404] }),
  "invitations.lookup": open(() => ({ query: "token=not-a-token" }), [404]),
  "invitations.accept": open(() => ({
    json: { token: "not-a-token", username: unique("invited"), password: "password-1234", first_name: "Invited" }
  }), [404]),
  // A wrong current password (403), so that nobody's password changes.
  "account.changePassword": {
    access: "signedIn",
    request: () => ({ json: { current_password: "not-the-password", new_password: "password-5678" } }),
    accept: [403]
  },
  // The world's owner calls with its API key: a second owner's key is renewed in its place.
  "account.regenerateApiKey": {
    access: "signedIn",
    request: (_, caller) =>
      caller.name === "owner" ? fresh(secondOwnerKey, (key) => ({ headers: { "x-gloss-api-key": key } })) : {}
  },
  "account.renameWorkspace": needs("workspaces.rename", (w) =>
    fresh(w.freshWorkspace, (id) => ({ params: { id }, json: { name: unique("renamed") } }))),
  // Review (/api/gloss): none of these callers is a named reviewer, so Policy's row decides; an annotator named a
  // reviewer is test/http/review.test.ts. A record's question may be unsettled already (404).
  "review.agreement": needs("review.read", (w) => ({ ...dataset(w), json: {} })),
  "review.queue": needs("review.read", (w) => ({ ...dataset(w), json: {} })),
  "review.finalAnswers": needs("review.read", record),
  "review.settle": needs("review.read", (w) => ({
    ...record(w),
    json: { items: [{ question: "label", value: "yes", source: "reviewer" }] }
  })),
  "review.unsettle": needs("review.read", (w) => ({ params: { id: w.record.id, question: "label" } }), { accept: [404] }),
  "review.acceptAgreed": needs("review.read", (w) => ({ ...dataset(w), json: {} })),
  "review.reviewers": needs("review.manageReviewers", (w) => ({ params: { id: w.w1 } })),
  "review.addReviewer": needs("review.manageReviewers", (w) =>
    fresh(w.freshUser(w.w1), (user) => ({ params: { id: w.w1 }, json: { user_id: user } }))),
  "review.removeReviewer": needs("review.manageReviewers", (w) =>
    fresh(namedReviewer(w.w1, w.freshUser(w.w1)), (user) => ({ params: { id: w.w1, user_id: user } }))),
  "review.mine": anyone(),
  // Assignment (/api/gloss): leads (assignment.manage) assign, members read the settings and their own queue. The
  // bodies leave the world as it was for the other rows: no blind mode, nothing reserved, priority 0.
  "assignment.settings": needs("datasets.read", dataset),
  "assignment.updateSettings": needs("assignment.manage", (w) => ({ ...dataset(w), json: { lease_minutes: 30 } })),
  "assignment.summary": needs("assignment.manage", dataset),
  "assignment.assign": needs("assignment.manage", (w) => ({
    ...dataset(w),
    json: { users: [w.caller("annotatorMember").id], record_ids: [w.record.id] }
  })),
  "assignment.unassign": needs("assignment.manage", (w) => ({ ...dataset(w), json: { record_ids: [w.record.id] } })),
  "assignment.move": needs("assignment.manage", (w) => ({
    ...dataset(w),
    json: { from: w.caller("annotatorMember").id, to: [w.caller("adminMember").id], record_ids: [w.record.id] }
  })),
  "assignment.setQuota": needs("assignment.manage", (w) => ({
    ...dataset(w),
    json: { user_id: w.caller("annotatorMember").id, quota: null }
  })),
  "assignment.prioritize": needs("assignment.manage", (w) => ({ ...dataset(w), json: { record_ids: [w.record.id], priority: 0 } })),
  "assignment.queue": needs("records.searchOwn", (w) => ({ ...dataset(w), json: { reserve: false } })),
  "assignment.release": needs("records.searchOwn", dataset)
}

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect, {
      HF_ENDPOINT: "http://127.0.0.1:1",
      // The webhooks made here post to a closed loopback port, which only this lets them name.
      GLOSS_WEBHOOKS_ALLOWED_HOSTS: "127.0.0.1"
    }), { excludeTestServices: true, timeout: 120_000 })("permission matrix", (it) => {
      it.effect("every operation of the OpenAPI document has a row, and the public ones are exactly the open ones", () =>
        Effect.gen(function*() {
          const ops = yield* operations
          expect(ops.length).toBeGreaterThan(60)
          const ids = new Set(ops.map((op) => op.id))
          expect(ops.filter((op) => !(op.id in table)).map((op) => `${op.id} (${op.method} ${op.path})`)).toEqual([])
          expect(Object.keys(table).filter((id) => !ids.has(id))).toEqual([])
          const isPublic = (id: string) => [table[id] ?? []].flat().every((c) => c.access === "public")
          expect(ops.filter((op) => op.open !== isPublic(op.id)).map((op) => op.id)).toEqual([])
        }))

      it.effect("each caller gets what the policy grants: 401, 403, or an answer; never a 5xx", () =>
        Effect.gen(function*() {
          const world = yield* makeWorld
          const lines: Array<Line> = []
          for (const op of yield* operations) {
            for (const c of [table[op.id] ?? []].flat()) {
              const cells: Array<Cell> = []
              for (const caller of world.callers) {
                const built = c.request(world, caller)
                const request = Effect.isEffect(built) ? yield* built : built
                const response = yield* send(op.method, op.path, request, caller)
                cells.push(judgeCell(c, world, caller, response.status, response.body))
              }
              const note = c.note === undefined ? "" : ` (${c.note})`
              const label = `${op.method} ${op.path.replace("/api/v1", "")}${note}`
              lines.push({ label, access: describeAccess(c.access), cells })
            }
          }
          const failures = lines.flatMap((l) =>
            l.cells.flatMap((cell) => cell.problem === undefined ? [] : [`${l.label} as ${cell.caller}: ${cell.problem}`])
          )
          // GLOSS_PRINT_MATRIX=1 prints it even when everything matches.
          if (failures.length > 0 || process.env.GLOSS_PRINT_MATRIX === "1") console.log(render(lines))
          expect(failures).toEqual([])
        }), 180_000)
    })
  })
}

/**
 * The world the permission matrix runs in (test/http/permission-matrix.test.ts): two workspaces, one caller of each
 * kind, and in W1 a published dataset with every kind of thing an operation can be about. Everything is made through
 * the API as the owner; the `fresh*` helpers make a new target for operations that change or destroy theirs.
 */
import { Effect } from "effect"
import type { Role } from "../../src/domain/User.js"
import { JobQueue } from "../../src/services/jobs/JobQueue.js"
import { RecomputeStatuses } from "../../src/services/datasets/recomputeStatusesJob.js"
import { unique } from "./fixtures.js"
import { OWNER, raw } from "./server.js"

export type Json = { readonly [key: string]: unknown }

export const CALLERS = [
  "anonymous",
  "badKey",
  "annotatorMember",
  "annotatorOutsider",
  "adminMember",
  "adminOutsider",
  "owner",
  "ownerKeyBadBearer",
  "ownerKeyEmptyKey",
  "ownerKeyOtherToken"
] as const
export type CallerName = typeof CALLERS[number]

export interface Caller {
  readonly name: CallerName
  /** Unset for the callers without valid credentials. */
  readonly role?: Role
  readonly id?: string
  readonly username?: string
  /** Member of W1 (and of the workspaces `freshWorkspace` makes): the workspace of every target. */
  readonly member: boolean
  readonly headers: Readonly<Record<string, string>>
}

const asOwner = { "x-gloss-api-key": OWNER.apiKey }

/** A JSON request that must succeed (2xx); its body. */
export const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = asOwner) =>
  Effect.flatMap(
    raw(`/api/v1${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    }),
    (response) =>
      response.status >= 200 && response.status < 300
        ? Effect.succeed(response.body as Json)
        : Effect.dieMessage(`fixture ${method} ${path} answered ${response.status}: ${response.text}`)
  )

const id = (body: Json) => String(body.id)

const LABEL = {
  name: "label",
  title: "Label",
  required: true,
  settings: { type: "label_selection", options: [{ value: "yes", text: "Yes" }, { value: "no", text: "No" }] }
}
export const ANSWER = { status: "submitted", values: { label: { value: "yes" } } } as const

/** A user with `role`, member of `workspaces`, signed in with a bearer token (the API key's visibility is not ours). */
const signedIn = (name: CallerName, role: Role, workspaces: ReadonlyArray<string>, member: boolean) =>
  Effect.gen(function*() {
    const username = unique(role)
    const user = yield* call("POST", "/users", { first_name: name, username, password: "password-1234", role })
    for (const workspace of workspaces) yield* call("POST", `/workspaces/${workspace}/users`, { user_id: user.id })
    const token = yield* raw("/api/v1/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username, password: "password-1234" }).toString()
    })
    const bearer = String((token.body as Json).access_token)
    return { name, role, id: id(user), username, member, headers: { authorization: `Bearer ${bearer}` } } satisfies Caller
  })

export const makeWorld = Effect.gen(function*() {
  const w1 = id(yield* call("POST", "/workspaces", { name: unique("w1") }))
  const w2 = id(yield* call("POST", "/workspaces", { name: unique("w2") }))
  const annotatorMember = yield* signedIn("annotatorMember", "annotator", [w1], true)
  // The owner's valid key beside a credential that does not hold: refused as a whole, never the key alone honoured.
  const ownerKeyWith = (name: CallerName, headers: Record<string, string>): Caller => ({
    name,
    member: false,
    headers: { ...asOwner, ...headers }
  })
  const callers: ReadonlyArray<Caller> = [
    { name: "anonymous", member: false, headers: {} },
    { name: "badKey", member: false, headers: { "x-gloss-api-key": "not-a-key" } },
    annotatorMember,
    yield* signedIn("annotatorOutsider", "annotator", [w2], false),
    yield* signedIn("adminMember", "admin", [w1], true),
    yield* signedIn("adminOutsider", "admin", [w2], false),
    { name: "owner", role: "owner", id: id(yield* call("GET", "/me")), username: OWNER.username, member: true, headers: asOwner },
    ownerKeyWith("ownerKeyBadBearer", { authorization: "Bearer abc" }),
    ownerKeyWith("ownerKeyEmptyKey", { "x-argilla-api-key": "" }),
    ownerKeyWith("ownerKeyOtherToken", annotatorMember.headers)
  ]
  const caller = (name: CallerName) => callers.find((c) => c.name === name) as Caller

  /** A draft dataset in W1 with a text field `text`. */
  const freshDraft = Effect.gen(function*() {
    const dataset = id(yield* call("POST", "/datasets", { name: unique("ds"), workspace_id: w1 }))
    const field = yield* call("POST", `/datasets/${dataset}/fields`, { name: "text", title: "Text", settings: { type: "text" } })
    return { id: dataset, field: id(field) }
  })

  const { id: dataset, field } = yield* freshDraft
  const questions = {
    label: id(yield* call("POST", `/datasets/${dataset}/questions`, LABEL)),
    rating: id(yield* call("POST", `/datasets/${dataset}/questions`, {
      name: "rating",
      title: "Rating",
      required: false,
      settings: { type: "rating", options: [{ value: 1 }, { value: 2 }, { value: 3 }] }
    })),
    text: id(yield* call("POST", `/datasets/${dataset}/questions`, {
      name: "comment",
      title: "Comment",
      required: false,
      settings: { type: "text" }
    }))
  }
  const metadata = {
    visible: id(yield* call("POST", `/datasets/${dataset}/metadata-properties`, {
      name: "genre",
      title: "Genre",
      settings: { type: "terms", values: ["news", "blog"] },
      visible_for_annotators: true
    })),
    hidden: id(yield* call("POST", `/datasets/${dataset}/metadata-properties`, {
      name: "cost",
      title: "Cost",
      settings: { type: "integer", min: 0, max: 100 },
      visible_for_annotators: false
    }))
  }
  const vectors = id(yield* call("POST", `/datasets/${dataset}/vectors-settings`, { name: "emb", title: "Emb", dimensions: 3 }))
  yield* call("PUT", `/datasets/${dataset}/publish`)

  /** A record of the published dataset, with a suggestion for `label`. */
  const freshRecord = Effect.gen(function*() {
    const created = yield* call("POST", `/datasets/${dataset}/records/bulk`, {
      items: [{
        fields: { text: unique("text") },
        metadata: { genre: "news", cost: 7, extra: "undeclared" },
        vectors: { emb: [0.1, 0.2, 0.3] },
        suggestions: [{ question_id: questions.label, value: "yes", agent: "model-1", score: 0.9 }]
      }]
    })
    const record = (created.items as ReadonlyArray<Json>)[0] as Json
    return { id: id(record), suggestion: id((record.suggestions as ReadonlyArray<Json>)[0] as Json) }
  })

  /** `author`'s response to `record`. */
  const answer = (record: string, author: CallerName) =>
    Effect.map(call("POST", `/records/${record}/responses`, ANSWER, caller(author).headers), id)

  const record = yield* freshRecord
  const responses = { annotator: yield* answer(record.id, "annotatorMember"), admin: yield* answer(record.id, "adminMember") }

  const webhook = yield* call("POST", "/webhooks", { url: "http://127.0.0.1:9/hook", events: ["record.deleted"] })
  // Disabled: the matrix deletes records, and nothing listens on port 9.
  yield* call("PATCH", `/webhooks/${id(webhook)}`, { enabled: false })

  const job = yield* Effect.flatMap(JobQueue, (queue) => queue.enqueue("default", RecomputeStatuses, { datasetId: dataset }))
    .pipe(Effect.provide(JobQueue.Default))

  /** A workspace the member callers belong to (as to W1), the outsiders not. */
  const freshWorkspace = Effect.gen(function*() {
    const workspace = id(yield* call("POST", "/workspaces", { name: unique("wx") }))
    for (const c of callers) {
      if (c.member && c.role !== "owner") yield* call("POST", `/workspaces/${workspace}/users`, { user_id: c.id })
    }
    return workspace
  })

  const freshUser = (workspace?: string) =>
    Effect.gen(function*() {
      const user = id(yield* call("POST", "/users", {
        first_name: "Fresh",
        username: unique("fresh"),
        password: "password-1234",
        role: "annotator"
      }))
      if (workspace !== undefined) yield* call("POST", `/workspaces/${workspace}/users`, { user_id: user })
      return user
    })

  return {
    w1,
    w2,
    callers,
    caller,
    dataset,
    /** A draft in W1, for what only drafts accept (new fields and questions). */
    draft: (yield* freshDraft).id,
    field,
    questions,
    metadata,
    vectors,
    record,
    responses,
    webhook: id(webhook),
    job,
    freshDraft,
    freshRecord,
    freshWorkspace,
    freshUser,
    answer
  } as const
})

export type World = Effect.Effect.Success<typeof makeWorld>

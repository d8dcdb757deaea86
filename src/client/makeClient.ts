/**
 * One client's parts, built from its options without contacting the server: the transport, the collections, the
 * record operations and `me` (fetched on first use, then cached for the client's life; a failure is not cached).
 */
import { Effect, Option, SynchronizedRef } from "effect"
import type { User } from "../domain/User.js"
import { makeAssignment } from "./Assignment.js"
import { makeDatasetSettings } from "./datasetSettings.js"
import { makeDatasets } from "./Datasets.js"
import { type ClientOptions, resolveSettings } from "./Options.js"
import { makeRecords } from "./Records.js"
import { makeReview } from "./Review.js"
import { makeAccount, makeInvitations } from "./Team.js"
import { makeTransport } from "./Transport.js"
import { makeUsers } from "./Users.js"
import { makeWebhooks } from "./Webhooks.js"
import { makeWorkspaces } from "./Workspaces.js"
import { makeHubTransfer } from "./transfer/hub.js"

export const buildClient = Effect.fn("GlossClient.build")(function*(options: ClientOptions) {
  const settings = yield* resolveSettings(options)
  const transport = yield* makeTransport(settings)
  const { api, call } = transport
  const workspaces = makeWorkspaces(transport)

  const cachedMe = yield* SynchronizedRef.make(Option.none<User>())
  // Serialised, so that concurrent first uses make one request.
  type Cached = readonly [User, Option.Option<User>]
  const me = SynchronizedRef.modifyEffect(cachedMe, (cached) =>
    Option.match(cached, {
      onSome: (user) => Effect.succeed<Cached>([user, cached]),
      onNone: () => Effect.map(call(api.me.me()), (user): Cached => [user, Option.some(user)])
    })).pipe(Effect.withSpan("GlossClient.me"))

  const datasets = makeDatasets(transport, workspaces, settings.workspace)
  const records = makeRecords(transport)
  const users = makeUsers(transport, workspaces)
  return {
    /** The API's base URL, without a trailing slash. */
    apiUrl: settings.apiUrl,
    /** The workspace dataset lookups prefer before `workspaces.default`. */
    workspace: settings.workspace,
    me,
    workspaces,
    users,
    /** With `toHub` / `fromHub`. */
    datasets: Object.assign(datasets, makeHubTransfer({ transport, workspaces, datasetSettings: makeDatasetSettings(transport), records, users, me })),
    webhooks: makeWebhooks(transport),
    records,
    /** Invitation links (a Gloss extension). */
    invitations: makeInvitations(transport, workspaces),
    /** Your own password and API key, and renaming a workspace (Gloss extensions). */
    account: makeAccount(transport, workspaces),
    /** Agreement, review queues, final answers and reviewers (a Gloss extension). */
    review: makeReview(transport, workspaces),
    /** Queue settings, assignments, quotas, priorities, and the caller's own queue (a Gloss extension). */
    assignment: makeAssignment(transport),
    /** The typed endpoints themselves, for what no collection covers; wrap calls in `call`. */
    api,
    /** Applies the timeout and maps transport failures to the client's errors. */
    call
  }
})

export type GlossClientShape = Effect.Effect.Success<ReturnType<typeof buildClient>>

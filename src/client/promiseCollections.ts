/**
 * The collections of the Promise face: each method runs the Effect face's method on the client's runtime, `None`
 * becomes `undefined`, a `Stream` becomes an async iterator. No behaviour lives here.
 */
import { Effect, Option, type Stream } from "effect"
import type { DatasetDraft, Dataset } from "./datasetSettings.js"
import type { DatasetLookup } from "./Datasets.js"
import type { FromDiskOptions, ToDiskOptions } from "./transfer/disk.js"
import type { FromHubOptions, ToHubOptions } from "./transfer/hub.js"
import type { GlossClientShape } from "./makeClient.js"
import type { Answer, ApplyOptions, LogOptions, LogResult, DatasetRef, StreamOptions } from "./Records.js"
import type {
  AssigneeRef,
  AssignmentQueueOptions,
  AssignOptions,
  MoveOptions,
  PrioritizeOptions,
  UnassignOptions
} from "./Assignment.js"
import type { QueueOptions } from "./Review.js"
import type { Sequence } from "./sequence.js"
import type { InvitationDraft } from "./Team.js"
import type { UserDraft, UserLookup } from "./Users.js"
import type { WebhookLookup, WebhookRef } from "./Webhooks.js"
import type { WorkspaceDraft, WorkspaceLookup, WorkspaceRef } from "./Workspaces.js"
import type { WebhookCreate, WebhookUpdate } from "../domain/Webhook.js"
import type { RecordUpsert } from "../domain/Record.js"
import type { InvitationId } from "../domain/Invitation.js"
import type { AcceptAgreedRequest, AgreementRequest, FinalAnswerSet } from "../domain/Review.js"
import type { QueueSettingsUpdate } from "../domain/Assignment.js"

export type Run = <A, E>(f: (client: GlossClientShape) => Effect.Effect<A, E>) => Promise<A>
export type Iterate = <A, E>(f: (client: GlossClientShape) => Stream.Stream<A, E>) => AsyncIterable<A>

const orUndefined = <A>(option: Option.Option<A>): A | undefined => Option.getOrUndefined(option)

/** `defineProperty` adds a getter (a fresh request on each read); `Object.assign` would copy one value. */
const withGetter = <T extends object, K extends string, V>(target: T, key: K, get: () => V): T & { readonly [P in K]: V } => {
  Object.defineProperty(target, key, { get, enumerable: true })
  // Why the cast: the property now exists at runtime, which TypeScript cannot follow through defineProperty.
  return target as T & { readonly [P in K]: V }
}

const sequenceFace = <B, E>(run: Run, iterate: Iterate, of: (client: GlossClientShape) => Sequence<B, E>) => ({
  count: () => run((client) => of(client).count()),
  at: (index: number) => run((client) => of(client).at(index)).then(orUndefined),
  slice: (start: number, end?: number) => run((client) => of(client).slice(start, end)),
  [Symbol.asyncIterator]: () => iterate((client) => of(client).stream)[Symbol.asyncIterator]()
})

export const promiseWorkspaces = (run: Run, iterate: Iterate) => {
  const get = (lookup: WorkspaceLookup) => run((client) => client.workspaces.get(lookup)).then(orUndefined)
  const collection = Object.assign(get, {
    get,
    list: () => run((client) => client.workspaces.list()),
    add: (draft: WorkspaceDraft) => run((client) => client.workspaces.add(draft)),
    ...sequenceFace(run, iterate, (client) => client.workspaces)
  })
  return withGetter(collection, "default", () => run((client) => client.workspaces.default))
}

export const promiseUsers = (run: Run, iterate: Iterate) => {
  const get = (lookup: UserLookup) => run((client) => client.users.get(lookup)).then(orUndefined)
  return Object.assign(get, {
    get,
    list: (options: { readonly workspace?: WorkspaceRef } = {}) => run((client) => client.users.list(options)),
    add: (draft: UserDraft) => run((client) => client.users.add(draft)),
    ...sequenceFace(run, iterate, (client) => client.users)
  })
}

export const promiseDatasets = (run: Run, iterate: Iterate) => {
  function get(args: { readonly id: string; readonly name?: string; readonly workspace?: WorkspaceRef }): Promise<Dataset | undefined>
  function get(args: { readonly name: string; readonly workspace?: WorkspaceRef }): Promise<Dataset | undefined>
  function get(args: { readonly workspace: WorkspaceRef }): Promise<ReadonlyArray<Dataset>>
  function get(args: DatasetLookup): Promise<Dataset | undefined | ReadonlyArray<Dataset>>
  function get(args: DatasetLookup): Promise<Dataset | undefined | ReadonlyArray<Dataset>> {
    return run((client) => client.datasets.get(args)).then((found) => (Option.isOption(found) ? orUndefined(found) : found))
  }
  return Object.assign(get, {
    get,
    list: () => run((client) => client.datasets.list()),
    add: (draft: DatasetDraft) => run((client) => client.datasets.add(draft)),
    toDisk: (dataset: Dataset, dir: string, options?: ToDiskOptions) =>
      run((client) => client.datasets.toDisk(dataset, dir, options)),
    fromDisk: (dir: string, options: FromDiskOptions) => run((client) => client.datasets.fromDisk(dir, options)),
    toHub: (dataset: Dataset, repoId: string, options?: ToHubOptions) =>
      run((client) => client.datasets.toHub(dataset, repoId, options)),
    fromHub: (repoId: string, options: FromHubOptions) => run((client) => client.datasets.fromHub(repoId, options)),
    ...sequenceFace(run, iterate, (client) => client.datasets)
  })
}

export const promiseWebhooks = (run: Run, iterate: Iterate) => {
  const get = (lookup: WebhookLookup) => run((client) => client.webhooks.get(lookup)).then(orUndefined)
  return Object.assign(get, {
    get,
    list: () => run((client) => client.webhooks.list()),
    add: (draft: WebhookCreate) => run((client) => client.webhooks.add(draft)),
    update: (webhook: WebhookRef, changes: WebhookUpdate) => run((client) => client.webhooks.update(webhook, changes)),
    delete: (webhook: WebhookRef) => run((client) => client.webhooks.delete(webhook)),
    ping: (webhook: WebhookRef) => run((client) => client.webhooks.ping(webhook)),
    ...sequenceFace(run, iterate, (client) => client.webhooks)
  })
}

export const promiseRecords = (run: Run, iterate: Iterate) => ({
  log: (dataset: DatasetRef, records: ReadonlyArray<RecordUpsert>, options?: LogOptions): Promise<LogResult> =>
    run((client) => client.records.log(dataset, records, options)),
  stream: (dataset: DatasetRef, options?: StreamOptions) => iterate((client) => client.records.stream(dataset, options)),
  delete: (
    dataset: DatasetRef,
    records: ReadonlyArray<string | { readonly id: string }>,
    options?: { readonly batchSize?: number | undefined }
  ) => run((client) => client.records.delete(dataset, records, options)),
  apply: (dataset: DatasetRef, answer: Answer, options?: ApplyOptions) =>
    run((client) => client.records.apply(dataset, answer, options))
})

export const promiseInvitations = (run: Run) => ({
  add: (draft: InvitationDraft) => run((client) => client.invitations.add(draft)),
  list: () => run((client) => client.invitations.list()),
  revoke: (invitation: InvitationId | { readonly id: InvitationId }) => run((client) => client.invitations.revoke(invitation))
})

export const promiseAccount = (run: Run) => ({
  changePassword: (currentPassword: string, newPassword: string) =>
    run((client) => client.account.changePassword(currentPassword, newPassword)),
  regenerateApiKey: () => run((client) => client.account.regenerateApiKey()),
  renameWorkspace: (workspace: WorkspaceRef, name: string) => run((client) => client.account.renameWorkspace(workspace, name))
})

type Ref = string | { readonly id: string }

export const promiseReview = (run: Run) => ({
  agreement: (dataset: DatasetRef, request?: AgreementRequest) => run((client) => client.review.agreement(dataset, request)),
  queue: (dataset: DatasetRef, options?: QueueOptions) => run((client) => client.review.queue(dataset, options)),
  finalAnswers: (record: Ref) => run((client) => client.review.finalAnswers(record)),
  settle: (record: Ref, items: ReadonlyArray<FinalAnswerSet>) => run((client) => client.review.settle(record, items)),
  unsettle: (record: Ref, question: string) => run((client) => client.review.unsettle(record, question)),
  acceptAgreed: (dataset: DatasetRef, request?: Partial<AcceptAgreedRequest>) =>
    run((client) => client.review.acceptAgreed(dataset, request)),
  reviewers: {
    list: (workspace: WorkspaceRef) => run((client) => client.review.reviewers.list(workspace)),
    add: (workspace: WorkspaceRef, member: Ref) => run((client) => client.review.reviewers.add(workspace, member)),
    remove: (workspace: WorkspaceRef, member: Ref) => run((client) => client.review.reviewers.remove(workspace, member))
  },
  mine: () => run((client) => client.review.mine())
})

export const promiseAssignment = (run: Run) => ({
  settings: (dataset: DatasetRef) => run((client) => client.assignment.settings(dataset)),
  updateSettings: (dataset: DatasetRef, update: QueueSettingsUpdate) =>
    run((client) => client.assignment.updateSettings(dataset, update)),
  summary: (dataset: DatasetRef) => run((client) => client.assignment.summary(dataset)),
  assign: (dataset: DatasetRef, options: AssignOptions) => run((client) => client.assignment.assign(dataset, options)),
  unassign: (dataset: DatasetRef, options?: UnassignOptions) => run((client) => client.assignment.unassign(dataset, options)),
  move: (dataset: DatasetRef, options: MoveOptions) => run((client) => client.assignment.move(dataset, options)),
  setQuota: (dataset: DatasetRef, user: AssigneeRef, quota: number | null) =>
    run((client) => client.assignment.setQuota(dataset, user, quota)),
  prioritize: (dataset: DatasetRef, options: PrioritizeOptions) =>
    run((client) => client.assignment.prioritize(dataset, options)),
  queue: (dataset: DatasetRef, options?: AssignmentQueueOptions) => run((client) => client.assignment.queue(dataset, options)),
  release: (dataset: DatasetRef) => run((client) => client.assignment.release(dataset))
})

/**
 * `gloss/client`: the typed client for a Gloss server (docs/reference/client.md). Two faces of one implementation —
 * `GlossClient` (Effect) and `Client` (Promises) — the errors both fail with, the wire types they hand out, and
 * Standard Webhooks verification for receivers. Imports the API contract (`domain/`, `contract/`) and the deploy
 * helper, never a server module.
 */
export { Client, type LogEntry, type PromiseOptions } from "./Client.js"
export { type DeployOnSpacesOptions, GlossClient } from "./GlossClient.js"
export type { GlossClientShape } from "./makeClient.js"
export { type ClientOptions, DEFAULT_API_URL, DEFAULT_RETRIES, DEFAULT_TIMEOUT_SECONDS } from "./Options.js"
export { type CredentialsOptions, credentialsPath, StoredCredentials } from "./credentials.js"
export * from "./Errors.js"

export type { Dataset, DatasetDraft, DatasetSettings } from "./datasetSettings.js"
export type { DatasetLookup } from "./Datasets.js"
export type { FromDiskOptions, FromDiskResult, ToDiskOptions, ToDiskResult, TransferProgress } from "./transfer/disk.js"
export type { FromHubOptions, FromHubResult, HubProgress, ToHubOptions, ToHubResult } from "./transfer/hub.js"
export type { Answer, ApplyOptions, DatasetRef, LogOptions, LogProgress, LogResult, StreamOptions } from "./Records.js"
export type { InvitationDraft } from "./Team.js"
export type { QueueOptions } from "./Review.js"
export type {
  AssigneeRef,
  AssignmentQueueOptions,
  AssignOptions,
  MoveOptions,
  PrioritizeOptions,
  RecordSelectionOptions,
  UnassignOptions
} from "./Assignment.js"
export type { UserDraft, UserLookup } from "./Users.js"
export type { WebhookLookup, WebhookRef } from "./Webhooks.js"
export type { WorkspaceDraft, WorkspaceInfo, WorkspaceLookup, WorkspaceRef } from "./Workspaces.js"
export {
  type WebhookDelivery,
  type WebhookHeaders,
  verifyWebhook,
  verifyWebhookEither,
  verifyWebhookSync
} from "./webhookVerification.js"

// The wire types the client hands out and accepts (snake_case, as the API sends them).
export type { Dataset as WireDataset, DatasetStatus, Distribution } from "../domain/Dataset.js"
export type {
  AssignmentSummary,
  AssigneeSummary,
  QueueItem,
  QueuePage,
  QueueSettings,
  QueueSettingsUpdate
} from "../domain/Assignment.js"
export type { Field, FieldCreate } from "../domain/Field.js"
export { DatasetId, RecordId, UserId, WebhookId, WorkspaceId } from "../domain/Ids.js"
export type { MetadataProperty, MetadataPropertyCreate } from "../domain/MetadataProperty.js"
export type { Question, QuestionCreate } from "../domain/Question.js"
export type { DatasetRecord, RecordUpsert } from "../domain/Record.js"
export type { Filter, SearchRecordsQuery } from "../domain/Search.js"
export type { Role, User } from "../domain/User.js"
export type { VectorSettings, VectorSettingsCreate } from "../domain/VectorSettings.js"
export type { Webhook, WebhookCreate, WebhookEventType, WebhookUpdate } from "../domain/Webhook.js"
export type { Workspace } from "../domain/Workspace.js"
export {
  DatasetEventData,
  EventType,
  RecordEventData,
  ResponseEventData,
  WebhookEnvelope
} from "../domain/Event.js"
export { API_KEY_HEADER } from "../contract/Authentication.js"
export { Api } from "../contract/Api.js"
export { type DeployOptions, type SpaceDeployment } from "../deploy/deployOnSpaces.js"
export { Hub } from "../deploy/Hub.js"
export type { DeployError } from "../deploy/Errors.js"

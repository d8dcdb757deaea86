/**
 * The client's own failures: the Argilla SDK's client-side errors (a lookup without arguments, a workspace that
 * cannot be resolved, no workspace to default to) and what can go
 * wrong before the server answers. Declared API errors arrive as the domain's tagged errors, re-exported here so
 * that `gloss/client` users import every error from one place.
 */
import { Schema } from "effect"
import { HubRepoNotFound, HubRequestFailed, HubUnauthorized, TransferFileError } from "../transfer/errors.js"

export { HubRepoNotFound, HubRequestFailed, HubUnauthorized, TransferFileError } from "../transfer/errors.js"

export {
  Conflict,
  Forbidden,
  InternalServerError,
  MissingVector,
  NotFound,
  PayloadTooLarge,
  ServiceUnavailable,
  Unauthorized,
  Unprocessable,
  ValidationError
} from "../domain/Errors.js"

/** A lookup of a workspace, user or dataset without any of its arguments. */
export class MissingLookupArgument extends Schema.TaggedError<MissingLookupArgument>()("MissingLookupArgument", {
  /** `'name' or 'id'`, `'username' or 'id'`, `'name', 'id' or 'workspace'`. */
  expected: Schema.String
}) {
  override get message() {
    return `One of ${this.expected} must be provided`
  }
}

/** A dataset lookup whose workspace cannot be resolved. */
export class WorkspaceNotFound extends Schema.TaggedError<WorkspaceNotFound>()("WorkspaceNotFound", {
  workspace: Schema.String
}) {
  override get message() {
    return `Workspace '${this.workspace}' not found, provide a valid workspace name or id`
  }
}

/** A username an assignment call names that is not a member of the dataset's workspace. */
export class UserNotFound extends Schema.TaggedError<UserNotFound>()("UserNotFound", { user: Schema.String }) {
  override get message() {
    return `User '${this.user}' is not a member of the dataset's workspace, provide a member's username or id`
  }
}

/** `workspaces.default` when the caller sees no workspace. */
export class NoWorkspaces extends Schema.TaggedError<NoWorkspaces>()("NoWorkspaces", {}) {
  override get message() {
    return "There are no workspaces created: create a workspace first"
  }
}

/** An id that is not a UUID: no resource can have it (the SDK's UUID parser fails the same way). */
export class InvalidId extends Schema.TaggedError<InvalidId>()("InvalidId", {
  entity: Schema.String,
  id: Schema.String
}) {
  override get message() {
    return `'${this.id}' is not a valid ${this.entity} id: ids are UUIDs`
  }
}

export class MissingApiKey extends Schema.TaggedError<MissingApiKey>()("MissingApiKey", {}) {
  override get message() {
    return "Missing apiKey. You must provide a valid API key (the apiKey option or GLOSS_API_KEY)."
  }
}

export class InvalidApiUrl extends Schema.TaggedError<InvalidApiUrl>()("InvalidApiUrl", { apiUrl: Schema.String }) {
  override get message() {
    return `Invalid apiUrl '${this.apiUrl}': it must be an http:// or https:// URL`
  }
}

/** The connection could not be made (refused, reset before a response, DNS), after every retry. */
export class ConnectionFailed extends Schema.TaggedError<ConnectionFailed>()("ConnectionFailed", {
  apiUrl: Schema.String,
  attempts: Schema.Number,
  reason: Schema.String
}) {
  override get message() {
    return `Could not reach '${this.apiUrl}' (${this.attempts} attempt${this.attempts === 1 ? "" : "s"}: ` +
      `${this.reason}): make sure that the Gloss server is running and working as expected`
  }
}

/** No complete answer within `timeout` seconds (connection retries included). */
export class RequestTimeout extends Schema.TaggedError<RequestTimeout>()("RequestTimeout", {
  apiUrl: Schema.String,
  timeout: Schema.Number
}) {
  override get message() {
    return `No answer from '${this.apiUrl}' within ${this.timeout} seconds`
  }
}

/** An answer the contract does not declare: another status (a proxy's 502, a non-Gloss URL) or body. */
export class UnexpectedResponse extends Schema.TaggedError<UnexpectedResponse>()("UnexpectedResponse", {
  status: Schema.optional(Schema.Number),
  detail: Schema.String
}) {
  override get message() {
    return `Unexpected response${this.status === undefined ? "" : ` (HTTP ${this.status})`}: ${this.detail}`
  }
}

/** The stored credentials file exists but cannot be read, parsed, written or removed. */
export class CredentialsFileError extends Schema.TaggedError<CredentialsFileError>()("CredentialsFileError", {
  path: Schema.String,
  detail: Schema.String
}) {
  override get message() {
    return `Cannot use the credentials file ${this.path}: ${this.detail}`
  }
}

/** A webhook delivery whose headers, timestamp or signature do not check out (Standard Webhooks). */
export class WebhookVerificationFailed extends Schema.TaggedError<WebhookVerificationFailed>()(
  "WebhookVerificationFailed",
  { reason: Schema.String }
) {
  override get message() {
    return `Webhook verification failed: ${this.reason}`
  }
}

/** A job the client waited for (`records.apply`) ended otherwise than `finished`; the server's log says why. */
export class JobFailed extends Schema.TaggedError<JobFailed>()("JobFailed", { id: Schema.String, status: Schema.String }) {
  override get message() {
    return `Job ${this.id} ended ${this.status}`
  }
}

/** A file of an export folder that is not what the Argilla SDK writes there. */
export class InvalidExportFile extends Schema.TaggedError<InvalidExportFile>()("InvalidExportFile", {
  path: Schema.String,
  detail: Schema.String
}) {
  override get message() {
    return `${this.path} is not in the Argilla SDK's export format: ${this.detail}`
  }
}

/** An import under a name the workspace already uses (the SDK would log into that dataset; Gloss refuses). */
export class DatasetNameTaken extends Schema.TaggedError<DatasetNameTaken>()("DatasetNameTaken", {
  name: Schema.String,
  workspace: Schema.String
}) {
  override get message() {
    return `A dataset named '${this.name}' already exists in workspace '${this.workspace}': import under another name`
  }
}

/**
 * An import whose records failed after the dataset was created: the dataset was deleted (`kept: false`), or kept
 * with the first `imported` records of the file (`kept: true`, asked for with `keepPartial`).
 */
export class DatasetImportFailed extends Schema.TaggedError<DatasetImportFailed>()("DatasetImportFailed", {
  dataset: Schema.String,
  imported: Schema.Number,
  total: Schema.Number,
  kept: Schema.Boolean,
  reason: Schema.String
}) {
  override get message() {
    return `Importing the records of dataset '${this.dataset}' failed after ${this.imported} of ${this.total}: ` +
      `${this.reason}; ` +
      (this.kept
        ? `the dataset was kept with the first ${this.imported} records of the file`
        : "the dataset was deleted, nothing was imported")
  }
}

/** What happens between the client and the server, whatever the endpoint. */
export type TransportError = ConnectionFailed | RequestTimeout | UnexpectedResponse

/** Construction: the options (or environment) cannot make a client. */
export type OptionsError = MissingApiKey | InvalidApiUrl

export type ClientError =
  | JobFailed
  | HubUnauthorized
  | HubRepoNotFound
  | HubRequestFailed
  | TransferFileError
  | InvalidExportFile
  | DatasetNameTaken
  | DatasetImportFailed
  | MissingLookupArgument
  | WorkspaceNotFound
  | UserNotFound
  | NoWorkspaces
  | InvalidId
  | OptionsError
  | TransportError
  | CredentialsFileError


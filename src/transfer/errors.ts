/**
 * The failures of moving a dataset through files and the Hugging Face Hub, shared by the client (`datasets.toHub`,
 * `toDisk`, …) and the server's export and import jobs. The client re-exports them from `gloss/client`.
 */
import { Schema } from "effect"

/** A folder or file of a dataset export that cannot be read or written (`toDisk`, `fromDisk`). */
export class TransferFileError extends Schema.TaggedError<TransferFileError>()("TransferFileError", {
  path: Schema.String,
  detail: Schema.String
}) {
  override get message() {
    return `Cannot use ${this.path}: ${this.detail}`
  }
}

/** The Hugging Face Hub refused the token (401): missing, wrong, or without access to the repository. */
export class HubUnauthorized extends Schema.TaggedError<HubUnauthorized>()("HubUnauthorized", {
  operation: Schema.String,
  detail: Schema.String
}) {
  override get message() {
    return `The Hugging Face Hub refused the token (${this.operation}): ${this.detail}`
  }
}

/** The Hub repository (or a file in it, or the split asked for) does not exist. */
export class HubRepoNotFound extends Schema.TaggedError<HubRepoNotFound>()("HubRepoNotFound", {
  repoId: Schema.String,
  detail: Schema.String
}) {
  override get message() {
    return `Hugging Face Hub dataset '${this.repoId}': ${this.detail}`
  }
}

/** Any other Hub failure: another status, an unreachable Hub, a body that is not what the Hub sends. */
export class HubRequestFailed extends Schema.TaggedError<HubRequestFailed>()("HubRequestFailed", {
  operation: Schema.String,
  status: Schema.optional(Schema.Number),
  detail: Schema.String
}) {
  override get message() {
    return `Hugging Face Hub ${this.operation} failed${this.status === undefined ? "" : ` (HTTP ${this.status})`}: ${this.detail}`
  }
}

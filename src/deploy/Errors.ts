/**
 * Every way `deployOnSpaces` can fail. Hub failures carry the operation (`GET /api/spaces/org/name`) and the Hub's
 * own explanation (its `X-Error-Message` header, else the start of the body), never the token.
 */
import { Schema } from "effect"

export const MIN_API_KEY_LENGTH = 8

export class InvalidApiKeyLength extends Schema.TaggedError<InvalidApiKeyLength>()("InvalidApiKeyLength", {
  length: Schema.Number
}) {
  override get message() {
    return `Provided API key has invalid length. Please provide an apikey with at least ${MIN_API_KEY_LENGTH} characters.`
  }
}

export class InvalidSpaceStage extends Schema.TaggedError<InvalidSpaceStage>()("InvalidSpaceStage", {
  stage: Schema.String
}) {
  override get message() {
    return `Space configuration is wrong and in stage: ${this.stage}`
  }
}

export class MissingHubToken extends Schema.TaggedError<MissingHubToken>()("MissingHubToken", {
  tokenPath: Schema.String
}) {
  override get message() {
    return "No Hugging Face token found and no terminal to log in from: pass hfToken (--hf-token), set HF_TOKEN, " +
      `or save a token in ${this.tokenPath} (create one at https://huggingface.co/settings/tokens).`
  }
}

/** The token file exists but cannot be read, or a token entered at the prompt cannot be saved. */
export class HubTokenFileError extends Schema.TaggedError<HubTokenFileError>()("HubTokenFileError", {
  tokenPath: Schema.String,
  detail: Schema.String
}) {
  override get message() {
    return `Cannot use the Hugging Face token file ${this.tokenPath}: ${this.detail}`
  }
}

const hubFields = { operation: Schema.String, detail: Schema.String }

const describe = (what: string, e: { readonly operation: string; readonly detail: string }) =>
  `${what} (${e.operation})${e.detail === "" ? "" : `: ${e.detail}`}`

/** 401: the token is invalid, expired, or lacks the permission. */
export class HubUnauthorized extends Schema.TaggedError<HubUnauthorized>()("HubUnauthorized", hubFields) {
  override get message() {
    return describe("Invalid user token", this)
  }
}

export class HubNotFound extends Schema.TaggedError<HubNotFound>()("HubNotFound", hubFields) {
  override get message() {
    return describe("Not found on the Hub", this)
  }
}

export class HubConflict extends Schema.TaggedError<HubConflict>()("HubConflict", hubFields) {
  override get message() {
    return describe("Conflict on the Hub", this)
  }
}

export class HubServerError extends Schema.TaggedError<HubServerError>()("HubServerError", {
  ...hubFields,
  status: Schema.Number
}) {
  override get message() {
    return describe(`The Hub answered ${this.status}`, this)
  }
}

/** Anything else: the Hub unreachable, another status (400, 403, …), or a body that is not what the Hub sends. */
export class HubRequestError extends Schema.TaggedError<HubRequestError>()("HubRequestError", {
  ...hubFields,
  status: Schema.optional(Schema.Number)
}) {
  override get message() {
    return describe(this.status === undefined ? "Hub request failed" : `The Hub answered ${this.status}`, this)
  }
}

export type HubError = HubUnauthorized | HubNotFound | HubConflict | HubServerError | HubRequestError

export type HubTokenError = MissingHubToken | HubTokenFileError | HubError

export type DeployError = InvalidApiKeyLength | InvalidSpaceStage | HubTokenError

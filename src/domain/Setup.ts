import { Schema } from "effect"
import { ResourceName } from "./Common.js"
import { UserCreate } from "./User.js"

/**
 * `GET /api/gloss/setup`: whether the server still needs its first owner, and whether creating it needs the set-up
 * token (it does not from the server's own machine, the loopback address).
 */
export const SetupStatus = Schema.Struct({
  needed: Schema.Boolean,
  token_required: Schema.Boolean
}).annotations({ identifier: "SetupStatus" })
export type SetupStatus = typeof SetupStatus.Type

/** `POST /api/gloss/setup`: the first owner and the first workspace, of which the owner is made a member. */
export const SetupRequest = Schema.Struct({
  /** The set-up token the server logs at start; not needed from the loopback address. */
  token: Schema.optional(Schema.String.pipe(Schema.maxLength(200))),
  username: UserCreate.fields.username,
  password: UserCreate.fields.password,
  workspace: ResourceName,
  first_name: Schema.optional(UserCreate.fields.first_name)
}).annotations({ identifier: "SetupRequest" })
export type SetupRequest = typeof SetupRequest.Type

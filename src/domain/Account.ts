import { Schema } from "effect"
import { ResourceName } from "./Common.js"
import { Password } from "./User.js"

/** `PUT /api/gloss/me/password`: the caller's own password, given the current one. */
export const PasswordChange = Schema.Struct({
  current_password: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)),
  new_password: Password
}).annotations({ identifier: "PasswordChange" })
export type PasswordChange = typeof PasswordChange.Type

/** `POST /api/gloss/me/api-key`: the caller's new API key, shown once; the previous one stops working. */
export const ApiKey = Schema.Struct({ api_key: Schema.String }).annotations({ identifier: "ApiKey" })
export type ApiKey = typeof ApiKey.Type

/** `PATCH /api/gloss/workspaces/{id}`: a workspace's new name (Argilla has no rename). */
export const WorkspaceRename = Schema.Struct({ name: ResourceName }).annotations({ identifier: "WorkspaceRename" })
export type WorkspaceRename = typeof WorkspaceRename.Type

import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ApiKey, PasswordChange, WorkspaceRename } from "../../domain/Account.js"
import { SignInLimited } from "../../domain/Auth.js"
import { Conflict, Forbidden, NotFound, Unprocessable } from "../../domain/Errors.js"
import { WorkspaceId } from "../../domain/Ids.js"
import { Workspace } from "../../domain/Workspace.js"
import { Authentication } from "../Authentication.js"

/**
 * The caller's own password and API key, and renaming a workspace (Gloss extensions, under `/api/gloss`). An owner
 * sets another user's password with Argilla's `PATCH /api/v1/users/{id}`.
 */
export class AccountGroup extends HttpApiGroup.make("account")
  .add(
    HttpApiEndpoint.put("changePassword", "/me/password").setPayload(PasswordChange)
      .addSuccess(Schema.Void, { status: 204 })
      .addError(Forbidden.http).addError(Unprocessable.http).addError(SignInLimited.http)
      .annotate(
        OpenApi.Description,
        "Change your own password. 403 for a wrong current password (counted with the failed sign-ins, so 429 " +
          "once they are used up), 422 for a new password equal to the current one."
      )
  )
  .add(
    HttpApiEndpoint.post("regenerateApiKey", "/me/api-key").addSuccess(ApiKey, { status: 201 })
      .annotate(OpenApi.Description, "A new API key for yourself, shown once; the previous key stops working at once")
  )
  .add(
    HttpApiEndpoint.patch("renameWorkspace", "/workspaces/:id").setPath(Schema.Struct({ id: WorkspaceId }))
      .setPayload(WorkspaceRename).addSuccess(Workspace)
      .addError(Forbidden.http).addError(NotFound.http).addError(Conflict.http)
      .annotate(OpenApi.Description, "Rename a workspace (owners only). 409 for a name another workspace has.")
  )
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Your password and API key; workspace names (Gloss extension)")
{}

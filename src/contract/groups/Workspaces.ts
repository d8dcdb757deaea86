import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Items } from "../../domain/Common.js"
import { Conflict, Forbidden, NotFound, Unprocessable } from "../../domain/Errors.js"
import { UserId, WorkspaceId } from "../../domain/Ids.js"
import { User } from "../../domain/User.js"
import { Workspace, WorkspaceCreate, WorkspaceUserCreate } from "../../domain/Workspace.js"
import { Authentication } from "../Authentication.js"

const ById = Schema.Struct({ id: WorkspaceId })

/** Workspaces and their members. There is no list endpoint: use `GET /me/workspaces`. */
export class WorkspacesGroup extends HttpApiGroup.make("workspaces")
  .add(
    HttpApiEndpoint.post("create", "/workspaces").setPayload(WorkspaceCreate).addSuccess(Workspace, { status: 201 })
      .addError(Conflict.http)
  )
  .add(HttpApiEndpoint.get("get", "/workspaces/:id").setPath(ById).addSuccess(Workspace).addError(NotFound.http))
  .add(
    HttpApiEndpoint.del("delete", "/workspaces/:id").setPath(ById).addSuccess(Workspace).addError(NotFound.http)
      .addError(Conflict.http)
  )
  .add(
    HttpApiEndpoint.get("listUsers", "/workspaces/:id/users").setPath(ById).addSuccess(Items(User))
      .addError(NotFound.http)
  )
  .add(
    HttpApiEndpoint.post("addUser", "/workspaces/:id/users").setPath(ById).setPayload(WorkspaceUserCreate)
      .addSuccess(User, { status: 201 }).addError(NotFound.http).addError(Conflict.http).addError(Unprocessable.http)
  )
  .add(
    HttpApiEndpoint.del("removeUser", "/workspaces/:id/users/:user_id")
      .setPath(Schema.Struct({ id: WorkspaceId, user_id: UserId })).addSuccess(User).addError(NotFound.http)
  )
  .addError(Forbidden.http)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Workspaces and their members")
{}

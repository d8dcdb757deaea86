import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Items } from "../../domain/Common.js"
import { Conflict, Forbidden, NotFound, Unprocessable } from "../../domain/Errors.js"
import { UserId } from "../../domain/Ids.js"
import { User, UserCreate, UserUpdate } from "../../domain/User.js"
import { Workspace } from "../../domain/Workspace.js"
import { Authentication } from "../Authentication.js"

const ById = Schema.Struct({ id: UserId })

/** User administration: owners only. */
export class UsersGroup extends HttpApiGroup.make("users")
  .add(HttpApiEndpoint.get("list", "/users").addSuccess(Items(User)))
  .add(HttpApiEndpoint.get("get", "/users/:id").setPath(ById).addSuccess(User).addError(NotFound.http))
  .add(HttpApiEndpoint.post("create", "/users").setPayload(UserCreate).addSuccess(User, { status: 201 }).addError(Conflict.http))
  .add(
    HttpApiEndpoint.patch("update", "/users/:id").setPath(ById).setPayload(UserUpdate).addSuccess(User)
      .addError(NotFound.http).addError(Conflict.http).addError(Unprocessable.http)
  )
  .add(
    HttpApiEndpoint.del("delete", "/users/:id").setPath(ById).addSuccess(User).addError(NotFound.http)
      .addError(Unprocessable.http)
  )
  .add(
    HttpApiEndpoint.get("workspaces", "/users/:id/workspaces").setPath(ById).addSuccess(Items(Workspace))
      .addError(NotFound.http)
  )
  .addError(Forbidden.http)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Users (owner only)")
{}

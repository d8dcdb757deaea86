import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Items } from "../../domain/Common.js"
import { User } from "../../domain/User.js"
import { Workspace } from "../../domain/Workspace.js"
import { Authentication } from "../Authentication.js"

export class MeGroup extends HttpApiGroup.make("me")
  .add(HttpApiEndpoint.get("me", "/me").addSuccess(User))
  .add(HttpApiEndpoint.get("workspaces", "/me/workspaces").addSuccess(Items(Workspace)))
  .middleware(Authentication)
{}

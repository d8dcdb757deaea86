import { Schema } from "effect"
import { ResourceName } from "./Common.js"
import { UserId, WorkspaceId } from "./Ids.js"
import { Timestamp } from "./Timestamp.js"

export const Workspace = Schema.Struct({
  id: WorkspaceId,
  name: Schema.String,
  inserted_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "Workspace" })
export type Workspace = typeof Workspace.Type

export const WorkspaceCreate = Schema.Struct({
  // The SDK sends `"id": null` (with null timestamps, which are ignored) when it lets the server choose.
  id: Schema.optional(Schema.NullOr(WorkspaceId)),
  name: ResourceName
}).annotations({ identifier: "WorkspaceCreate" })
export type WorkspaceCreate = typeof WorkspaceCreate.Type

export const WorkspaceUserCreate = Schema.Struct({ user_id: UserId }).annotations({ identifier: "WorkspaceUserCreate" })

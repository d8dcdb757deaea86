import * as crypto from "node:crypto"
import { Effect } from "effect"
import type { WorkspaceId } from "../../src/domain/Ids.js"
import type { Role, User } from "../../src/domain/User.js"
import type { Workspace } from "../../src/domain/Workspace.js"
import { clientFor, ownerClient } from "./server.js"

export const unique = (prefix: string) => `${prefix}-${crypto.randomBytes(4).toString("hex")}`

/** A user with `role`, member of `workspaces`, and a client authenticated as them. */
export const userWith = (role: Role, workspaces: ReadonlyArray<Workspace> = []) =>
  Effect.gen(function*() {
    const owner = yield* ownerClient
    const user: User = yield* owner.users.create({
      payload: { first_name: role, username: unique(role), password: "password-1234", role }
    })
    for (const workspace of workspaces) {
      yield* owner.workspaces.addUser({ path: { id: workspace.id }, payload: { user_id: user.id } })
    }
    return { user, client: yield* clientFor(user.api_key) }
  })

export const workspace = (name = unique("ws")) =>
  Effect.flatMap(ownerClient, (owner) => owner.workspaces.create({ payload: { name } }))

export const workspaceId = (w: Workspace): WorkspaceId => w.id

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
    const created = yield* owner.users.create({
      payload: { first_name: role, username: unique(role), password: "password-1234", role }
    })
    // Owners are shown the API keys of the users they create (anyone else would not be).
    if (created.api_key === undefined) return yield* Effect.dieMessage("the owner was not shown the new user's API key")
    const user: User & { readonly api_key: string } = { ...created, api_key: created.api_key }
    for (const workspace of workspaces) {
      yield* owner.workspaces.addUser({ path: { id: workspace.id }, payload: { user_id: user.id } })
    }
    return { user, client: yield* clientFor(user.api_key) }
  })

export const workspace = (name = unique("ws")) =>
  Effect.flatMap(ownerClient, (owner) => owner.workspaces.create({ payload: { name } }))

export const workspaceId = (w: Workspace): WorkspaceId => w.id

/**
 * `client.users`: every user (`GET /users`, owners only) or a workspace's members, looked up by
 * username or id, created, counted, indexed and streamed.
 */
import { Effect } from "effect"
import { UserId } from "../domain/Ids.js"
import type { Role } from "../domain/User.js"
import { lookupByNameOrId, quoted } from "./lookup.js"
import { sequenceOf } from "./sequence.js"
import type { Transport } from "./Transport.js"
import type { WorkspaceRef, Workspaces } from "./Workspaces.js"

export interface UserLookup {
  readonly username?: string | undefined
  readonly id?: string | undefined
}

export interface UserDraft {
  readonly username: string
  readonly password: string
  /** Default: the username, as the SDK does. */
  readonly first_name?: string | undefined
  readonly last_name?: string | null | undefined
  /** Default (server): annotator. */
  readonly role?: Role | undefined
}

export const makeUsers = ({ api, call }: Transport, workspaces: Workspaces) => {
  const all = Effect.map(call(api.users.list()), ({ items }) => items)

  const get = Effect.fn("GlossClient.users.get")(function*(lookup: UserLookup) {
    return yield* lookupByNameOrId({
      entity: "User",
      nameArgument: "username",
      name: lookup.username,
      id: lookup.id,
      idSchema: UserId,
      byId: (id) => call(api.users.get({ path: { id } })),
      list: all,
      nameOf: (user) => user.username,
      notFoundByName: (username) => `User with username ${quoted(username)} not found.`
    })
  })

  /** With a workspace, its members (`GET /workspaces/{id}/users`); without, every user. */
  const list = Effect.fn("GlossClient.users.list")(function*(options: { readonly workspace?: WorkspaceRef } = {}) {
    if (options.workspace === undefined) return yield* all
    const workspace = yield* workspaces.resolve(options.workspace)
    return (yield* call(api.workspaces.listUsers({ path: { id: workspace.id } }))).items
  })

  const add = Effect.fn("GlossClient.users.add")(function*(draft: UserDraft) {
    return yield* call(api.users.create({
      payload: {
        username: draft.username,
        password: draft.password,
        first_name: draft.first_name ?? draft.username,
        ...(draft.last_name === undefined ? {} : { last_name: draft.last_name }),
        ...(draft.role === undefined ? {} : { role: draft.role })
      }
    }))
  })

  return Object.assign((lookup: UserLookup) => get(lookup), { get, list, add, ...sequenceOf(all, Effect.succeed) })
}

export type Users = ReturnType<typeof makeUsers>

/**
 * People, workspaces and invitations: the reads and writes of the set-up, invitation, People, Workspaces and My
 * settings screens. Argilla's `/api/v1` endpoints for users and members, Gloss's `/api/gloss` ones for the first
 * owner, invitations, one's own password and key, and workspace names. The server checks every permission again.
 */
import { queryOptions } from "@tanstack/react-query"
import { Effect } from "effect"
import type { UserId, WorkspaceId } from "../../../src/domain/Ids.js"
import type { InvitationCreate, InvitationId } from "../../../src/domain/Invitation.js"
import type { Role, User, UserCreate, UserUpdate } from "../../../src/domain/User.js"
import type { Workspace } from "../../../src/domain/Workspace.js"
import { call } from "./client.js"
import { queryClient } from "./queries.js"

/** Owners manage accounts and workspaces; admins invite annotators into, and remove members from, their workspaces. */
export const isOwner = (role: Role | undefined) => role === "owner"
export const canInvite = (role: Role | undefined) => role === "owner" || role === "admin"

/**
 * A read the management pages make again each time they open (the lists are cached for the other screens): what
 * someone else, or a script, changed meanwhile shows up.
 */
export const fresh = <Options extends object>(options: Options) => ({ ...options, refetchOnMount: "always" as const })

// --- first start and invitations: no session needed

export const setupStatus = queryOptions({
  queryKey: ["setup"],
  queryFn: ({ signal }) => call((c) => c.setup.status(), signal),
  staleTime: 0
})

export const setUp = (payload: {
  readonly token?: string
  readonly username: string
  readonly password: string
  readonly workspace: string
  readonly first_name?: string
}) => call((c) => Effect.map(c.setup.create({ payload }), (t) => t.access_token))

export const invitationLookup = (token: string) =>
  queryOptions({
    queryKey: ["invitation", token],
    queryFn: ({ signal }) => call((c) => c.invitations.lookup({ urlParams: { token } }), signal),
    staleTime: 0
  })

export const acceptInvitation = (payload: {
  readonly token: string
  readonly username: string
  readonly password: string
  readonly first_name: string
  readonly last_name?: string | null
}) => call((c) => Effect.map(c.invitations.accept({ payload }), (t) => t.access_token))

// --- people

export const users = queryOptions({
  queryKey: ["users"],
  queryFn: ({ signal }) => call((c) => Effect.map(c.users.list(), (r) => r.items), signal)
})

/**
 * Every workspace the caller sees (owners: all of them) with its members: one request per workspace, so the
 * People table's "Workspaces" column needs none per user. An admin is shown the members of their own workspaces.
 */
export const memberships = (workspaces: ReadonlyArray<Workspace>) =>
  queryOptions({
    queryKey: ["memberships", workspaces.map((w) => w.id).join(",")],
    queryFn: ({ signal }) =>
      call((c) =>
        Effect.forEach(workspaces, (workspace) =>
          Effect.map(c.workspaces.listUsers({ path: { id: workspace.id } }), (r) => ({ workspace, members: r.items })), {
          concurrency: 4
        }), signal)
  })

const refreshPeople = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: ["users"] }),
    queryClient.invalidateQueries({ queryKey: ["memberships"] })
  ])

/** Creates the user, then adds them to `workspaces`; the answer is the user (with their API key, shown once). */
export const createUser = async (payload: UserCreate, workspaces: ReadonlyArray<WorkspaceId>): Promise<User> => {
  const user = await call((c) => c.users.create({ payload }))
  try {
    for (const id of workspaces) await call((c) => c.workspaces.addUser({ path: { id }, payload: { user_id: user.id } }))
  } finally {
    await refreshPeople()
  }
  return user
}

export const updateUser = async (id: UserId, payload: UserUpdate) => {
  const user = await call((c) => c.users.update({ path: { id }, payload }))
  await refreshPeople()
  return user
}

export const deleteUser = async (id: UserId) => {
  const user = await call((c) => c.users.delete({ path: { id } }))
  await refreshPeople()
  return user
}

// --- invitations

export const invitations = queryOptions({
  queryKey: ["invitations"],
  queryFn: ({ signal }) => call((c) => Effect.map(c.invitations.list(), (r) => r.items), signal)
})

export const invite = async (payload: InvitationCreate) => {
  const created = await call((c) => c.invitations.create({ payload }))
  await queryClient.invalidateQueries({ queryKey: ["invitations"] })
  return created
}

export const revokeInvitation = async (id: InvitationId) => {
  await call((c) => c.invitations.revoke({ path: { id } }))
  await queryClient.invalidateQueries({ queryKey: ["invitations"] })
}

// --- workspaces

const refreshWorkspaces = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: ["me", "workspaces"] }),
    queryClient.invalidateQueries({ queryKey: ["memberships"] })
  ])

export const createWorkspace = async (name: string) => {
  const workspace = await call((c) => c.workspaces.create({ payload: { name } }))
  await refreshWorkspaces()
  return workspace
}

export const renameWorkspace = async (id: WorkspaceId, name: string) => {
  const workspace = await call((c) => c.account.renameWorkspace({ path: { id }, payload: { name } }))
  await Promise.all([refreshWorkspaces(), queryClient.invalidateQueries({ queryKey: ["invitations"] })])
  return workspace
}

export const deleteWorkspace = async (id: WorkspaceId) => {
  const workspace = await call((c) => c.workspaces.delete({ path: { id } }))
  await refreshWorkspaces()
  return workspace
}

export const addMember = async (id: WorkspaceId, user: UserId) => {
  const added = await call((c) => c.workspaces.addUser({ path: { id }, payload: { user_id: user } }))
  await refreshWorkspaces()
  return added
}

export const removeMember = async (id: WorkspaceId, user: UserId) => {
  const removed = await call((c) => c.workspaces.removeUser({ path: { id, user_id: user } }))
  await refreshWorkspaces()
  return removed
}

// --- my account

export const changePassword = (current: string, next: string) =>
  call((c) => c.account.changePassword({ payload: { current_password: current, new_password: next } }))

/** A new key for the caller: the old one stops working at once. `GET /me` shows the new one from now on. */
export const regenerateApiKey = async () => {
  const { api_key } = await call((c) => c.account.regenerateApiKey())
  queryClient.setQueryData(["me"], (user: User | undefined) => user === undefined ? user : { ...user, api_key })
  return api_key
}

/**
 * Running a team (Gloss extensions under `/api/gloss`): `client.invitations` (invitation links: add, list,
 * revoke) and `client.account` (the caller's own password and API key, renaming a workspace).
 */
import { Effect } from "effect"
import type { InvitationId, InvitedRole } from "../domain/Invitation.js"
import type { Transport } from "./Transport.js"
import type { WorkspaceRef, Workspaces } from "./Workspaces.js"

export interface InvitationDraft {
  readonly role: InvitedRole
  /** One or more, by name, id or object. */
  readonly workspaces: ReadonlyArray<WorkspaceRef>
  /** 1 to 720; default (server): 7 days. */
  readonly expiresInHours?: number | undefined
}

export const makeInvitations = ({ api, call }: Transport, workspaces: Workspaces) => {
  /** The answer carries the link's token (and its `url` under the server's base URL), shown this once. */
  const add = Effect.fn("GlossClient.invitations.add")(function*(draft: InvitationDraft) {
    const ids = yield* Effect.forEach(draft.workspaces, (ref) => Effect.map(workspaces.resolve(ref), (w) => w.id))
    return yield* call(api.invitations.create({
      payload: {
        role: draft.role,
        workspace_ids: ids,
        ...(draft.expiresInHours === undefined ? {} : { expires_in_hours: draft.expiresInHours })
      }
    }))
  })

  /** Pending invitations: every one for owners, those into their own workspaces for admins. */
  const list = () => Effect.map(call(api.invitations.list()), ({ items }) => items).pipe(Effect.withSpan("GlossClient.invitations.list"))

  const revoke = (invitation: InvitationId | { readonly id: InvitationId }) =>
    call(api.invitations.revoke({ path: { id: typeof invitation === "string" ? invitation : invitation.id } })).pipe(
      Effect.withSpan("GlossClient.invitations.revoke")
    )

  return { add, list, revoke } as const
}

export type Invitations = ReturnType<typeof makeInvitations>

export const makeAccount = ({ api, call }: Transport, workspaces: Workspaces) => {
  const changePassword = (currentPassword: string, newPassword: string) =>
    call(api.account.changePassword({ payload: { current_password: currentPassword, new_password: newPassword } })).pipe(
      Effect.withSpan("GlossClient.account.changePassword")
    )

  /**
   * A new API key for the caller, returned once; the previous key stops working at once, this client's included
   * when it signs in with it: make a new client with the key returned.
   */
  const regenerateApiKey = () =>
    Effect.map(call(api.account.regenerateApiKey()), ({ api_key }) => api_key).pipe(
      Effect.withSpan("GlossClient.account.regenerateApiKey")
    )

  /** Owners only. */
  const renameWorkspace = Effect.fn("GlossClient.account.renameWorkspace")(function*(workspace: WorkspaceRef, name: string) {
    const { id } = yield* workspaces.resolve(workspace)
    return yield* call(api.account.renameWorkspace({ path: { id }, payload: { name } }))
  })

  return { changePassword, regenerateApiKey, renameWorkspace } as const
}

export type Account = ReturnType<typeof makeAccount>

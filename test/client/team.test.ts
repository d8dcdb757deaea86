/**
 * `client.invitations` and `client.account`, both faces: an owner invites by workspace name, lists and revokes;
 * the invited person accepts (over the API) and changes their password and API key through their own client; an
 * owner renames a workspace.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Client, GlossClient } from "../../src/client/index.js"
import { unique } from "../support/fixtures.js"
import { OWNER, TestServer, TestServerLive } from "../support/server.js"
import { ownerGloss } from "./support.js"

layer(TestServerLive("sqlite"), { excludeTestServices: true, timeout: 60_000 })("team", (it) => {
  it.scoped("invite by workspace name, list, revoke; the invited user changes their password and key", () =>
    Effect.gen(function*() {
      const { url } = yield* TestServer
      const owner = yield* ownerGloss()
      const workspace = yield* owner.workspaces.add({ name: unique("team") })
      const invitation = yield* owner.invitations.add({ role: "annotator", workspaces: [workspace.name], expiresInHours: 2 })
      expect(invitation.workspaces).toEqual([{ id: workspace.id, name: workspace.name }])
      expect((yield* owner.invitations.list()).map((i) => i.id)).toContain(invitation.id)

      const revoked = yield* owner.invitations.add({ role: "admin", workspaces: [workspace] })
      yield* owner.invitations.revoke(revoked)
      expect((yield* owner.invitations.list()).map((i) => i.id)).not.toContain(revoked.id)

      const username = unique("invited")
      const accepted = yield* owner.call(owner.api.invitations.accept({
        payload: { token: invitation.token, username, password: "first-password", first_name: "Invited" }
      }))
      // The accept signs in with a bearer token; `GET /me` shows the new user their API key.
      const me = yield* Effect.promise(() =>
        fetch(`${url}/api/v1/me`, { headers: { authorization: `Bearer ${accepted.access_token}` } }).then((r) => r.json())
      )
      const invited = yield* GlossClient.make({ apiUrl: url, apiKey: String((me as { api_key: string }).api_key) })
      yield* invited.account.changePassword("first-password", "second-password")
      const key = yield* invited.account.regenerateApiKey()
      const withKey = yield* GlossClient.make({ apiUrl: url, apiKey: key })
      expect((yield* withKey.me).username).toBe(username)
    }))

  it.effect("the Promise face: an owner renames a workspace by name and lists invitations", () =>
    Effect.gen(function*() {
      const { url } = yield* TestServer
      const client = new Client({ apiUrl: url, apiKey: OWNER.apiKey })
      const name = unique("before")
      const renamed = yield* Effect.promise(async () => {
        await client.workspaces.add({ name })
        const after = unique("after")
        const workspace = await client.account.renameWorkspace(name, after)
        const invitation = await client.invitations.add({ role: "annotator", workspaces: [after] })
        const pending = await client.invitations.list()
        await client.close()
        return { workspace, after, pending: pending.map((i) => i.id), invitation: invitation.id }
      })
      expect(renamed.workspace.name).toBe(renamed.after)
      expect(renamed.pending).toContain(renamed.invitation)
    }))
})

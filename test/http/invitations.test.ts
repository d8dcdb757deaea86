/**
 * Invitation links (`/api/gloss/invitations`): who may invite whom into which workspaces, the token answered once,
 * the anonymous lookup and accept, single use under concurrent accepts, revocation and expiry, and the one 404
 * for every token that does not work.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Either } from "effect"
import type { CreatedInvitation } from "../../src/domain/Invitation.js"
import { dialects } from "../support/databases.js"
import { expectFailure } from "../support/expect.js"
import { unique, userWith, workspace } from "../support/fixtures.js"
import { clientFor, clientWith, OWNER, ownerClient, raw, TestServerLive } from "../support/server.js"

const GONE = "This invitation does not exist, was used or revoked, or has expired"
const PASSWORD = "invited-password"

const anonymous = clientFor()
const asBearer = (accessToken: string) => clientWith({ authorization: `Bearer ${accessToken}` })
const person = (username = unique("invited")) => ({ username, password: PASSWORD, first_name: "Invited" })

const lookupStatus = (token: string) =>
  Effect.map(raw(`/api/gloss/invitations/lookup?token=${encodeURIComponent(token)}`), (answer) => answer)

/** The invitation as the lookup and accept see it: gone, with the one answer for every reason. */
const expectGone = (invitation: CreatedInvitation) =>
  Effect.gen(function*() {
    const looked = yield* lookupStatus(invitation.token)
    expect(looked.status).toBe(404)
    expect(looked.body).toEqual({ detail: GONE })
    const client = yield* anonymous
    yield* expectFailure(client.invitations.accept({ payload: { ...person(), token: invitation.token } }), "NotFound", GONE)
  })

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 60_000 })("invitations", (it) => {
      it.effect("an owner invites an admin into two workspaces: the token once, a lookup, then an accept that signs in", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const [a, b] = [yield* workspace(), yield* workspace()]
          const before = Date.now()
          const created = yield* owner.invitations.create({ payload: { role: "admin", workspace_ids: [a.id, b.id] } })
          expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
          expect(created.url).toBe(`/invite?token=${created.token}`)
          expect(created).toMatchObject({ role: "admin", created_by: { username: OWNER.username } })
          expect(created.workspaces.map((w) => w.name).sort()).toEqual([a.name, b.name].sort())
          // Seven days by default.
          const days = (created.expires_at.getTime() - before) / 86_400_000
          expect(days).toBeGreaterThan(6.99)
          expect(days).toBeLessThan(7.01)

          const listed = (yield* owner.invitations.list()).items.find((i) => i.id === created.id)
          expect(listed).toBeDefined()
          expect(listed).not.toHaveProperty("token")

          const client = yield* anonymous
          expect(yield* client.invitations.lookup({ urlParams: { token: created.token } })).toEqual({
            role: "admin",
            workspaces: [a.name, b.name].sort(),
            invited_by: OWNER.username,
            expires_at: created.expires_at
          })

          const username = unique("lead")
          const signedIn = yield* client.invitations.accept({
            payload: { ...person(username), last_name: "Lead", token: created.token }
          })
          expect(signedIn.token_type).toBe("bearer")
          const lead = yield* asBearer(signedIn.access_token)
          expect(yield* lead.me.me()).toMatchObject({ username, role: "admin", first_name: "Invited", last_name: "Lead" })
          expect((yield* lead.me.workspaces()).items.map((w) => w.name).sort()).toEqual([a.name, b.name].sort())

          // Used: gone everywhere, and no longer listed.
          yield* expectGone(created)
          expect((yield* owner.invitations.list()).items.some((i) => i.id === created.id)).toBe(false)
        }))

      it.effect("five accepts at once: one user is created, the others get the 404 of a used invitation", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const w = yield* workspace()
          const created = yield* owner.invitations.create({ payload: { role: "annotator", workspace_ids: [w.id] } })
          const client = yield* anonymous
          const usernames = Array.from({ length: 5 }, () => unique("racer"))
          const results = yield* Effect.all(
            usernames.map((username) => Effect.either(client.invitations.accept({ payload: { ...person(username), token: created.token } }))),
            { concurrency: "unbounded" }
          )
          expect(results.filter(Either.isRight)).toHaveLength(1)
          for (const lost of results.filter(Either.isLeft)) expect(lost.left._tag).toBe("NotFound")
          const users = (yield* owner.users.list()).items.filter((u) => usernames.includes(u.username))
          expect(users).toHaveLength(1)
          expect(users[0]?.role).toBe("annotator")
          const members = yield* owner.workspaces.listUsers({ path: { id: w.id } })
          expect(members.items.map((u) => u.id)).toEqual([users[0]?.id])
        }))

      it.effect("a taken username answers 409 and leaves the invitation usable", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const created = yield* owner.invitations.create({ payload: { role: "annotator", workspace_ids: [(yield* workspace()).id] } })
          const client = yield* anonymous
          yield* expectFailure(
            client.invitations.accept({ payload: { ...person(OWNER.username), token: created.token } }),
            "Conflict",
            `User username \`${OWNER.username}\` is not unique`
          )
          expect((yield* lookupStatus(created.token)).status).toBe(200)
          yield* client.invitations.accept({ payload: { ...person(), token: created.token } })
        }))

      it.effect("revoked and expired invitations, and unknown tokens, all answer the same 404", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const w = yield* workspace()
          const revoked = yield* owner.invitations.create({ payload: { role: "annotator", workspace_ids: [w.id] } })
          const shown = yield* owner.invitations.revoke({ path: { id: revoked.id } })
          expect(shown.id).toBe(revoked.id)
          yield* expectGone(revoked)
          yield* expectFailure(owner.invitations.revoke({ path: { id: revoked.id } }), "NotFound")

          const expired = yield* owner.invitations.create({
            payload: { role: "annotator", workspace_ids: [w.id], expires_in_hours: 1 }
          })
          expect(expired.expires_at.getTime() - expired.inserted_at.getTime()).toBe(3_600_000)
          const sql = yield* SqlClient.SqlClient
          yield* sql`update invitations set expires_at = ${new Date(Date.now() - 1000).toISOString()} where id = ${expired.id}`
          yield* expectGone(expired)
          expect((yield* owner.invitations.list()).items.some((i) => i.id === expired.id)).toBe(false)

          yield* expectGone({ ...revoked, token: "not-a-token-anyone-was-given" })
        }))

      it.effect("expiry is chosen between 1 hour and 30 days (422 outside); workspaces must exist (404)", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const w = yield* workspace()
          const post = (body: unknown) =>
            raw("/api/gloss/invitations", {
              method: "POST",
              headers: { "content-type": "application/json", "x-gloss-api-key": OWNER.apiKey },
              body: JSON.stringify(body)
            })
          expect((yield* post({ role: "annotator", workspace_ids: [w.id], expires_in_hours: 0 })).status).toBe(422)
          expect((yield* post({ role: "annotator", workspace_ids: [w.id], expires_in_hours: 721 })).status).toBe(422)
          expect((yield* post({ role: "annotator", workspace_ids: [w.id], expires_in_hours: 720 })).status).toBe(201)
          expect((yield* post({ role: "annotator", workspace_ids: [] })).status).toBe(422)
          expect((yield* post({ role: "owner", workspace_ids: [w.id] })).status).toBe(422)
          const missing = "00000000-0000-4000-8000-000000000000"
          yield* expectFailure(
            owner.invitations.create({ payload: { role: "annotator", workspace_ids: [w.id, missing as never] } }),
            "NotFound",
            `Workspace with id \`${missing}\` not found`
          )
        }))

      it.effect("an admin invites annotators into their own workspaces only, and sees and revokes only those", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const [mine, other] = [yield* workspace(), yield* workspace()]
          const { client: admin } = yield* userWith("admin", [mine])
          const { client: annotator } = yield* userWith("annotator", [mine])

          const own = yield* admin.invitations.create({ payload: { role: "annotator", workspace_ids: [mine.id] } })
          expect(own.created_by.username).toMatch(/^admin-/)
          yield* expectFailure(admin.invitations.create({ payload: { role: "admin", workspace_ids: [mine.id] } }), "Forbidden")
          yield* expectFailure(
            admin.invitations.create({ payload: { role: "annotator", workspace_ids: [mine.id, other.id] } }),
            "Forbidden"
          )
          yield* expectFailure(annotator.invitations.create({ payload: { role: "annotator", workspace_ids: [mine.id] } }), "Forbidden")
          yield* expectFailure(annotator.invitations.list(), "Forbidden")

          const intoOther = yield* owner.invitations.create({ payload: { role: "annotator", workspace_ids: [other.id] } })
          const byOwnerIntoMine = yield* owner.invitations.create({ payload: { role: "admin", workspace_ids: [mine.id] } })
          const seen = (yield* admin.invitations.list()).items.map((i) => i.id)
          expect(seen).toContain(own.id)
          expect(seen).toContain(byOwnerIntoMine.id)
          expect(seen).not.toContain(intoOther.id)
          yield* expectFailure(admin.invitations.revoke({ path: { id: intoOther.id } }), "NotFound")
          yield* expectFailure(annotator.invitations.revoke({ path: { id: own.id } }), "Forbidden")
          yield* admin.invitations.revoke({ path: { id: own.id } })
          yield* expectGone(own)
          // The owner's invitation into the other workspace still works.
          expect((yield* lookupStatus(intoOther.token)).status).toBe(200)
        }))

      it.effect("users who invited or were invited can be deleted; an inviter's pending invitations go with them", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const w = yield* workspace()
          const { client: admin, user: lead } = yield* userWith("admin", [w])
          const used = yield* admin.invitations.create({ payload: { role: "annotator", workspace_ids: [w.id] } })
          const pending = yield* admin.invitations.create({ payload: { role: "annotator", workspace_ids: [w.id] } })
          const client = yield* anonymous
          const signedIn = yield* client.invitations.accept({ payload: { ...person(), token: used.token } })
          const invited = yield* (yield* asBearer(signedIn.access_token)).me.me()
          yield* owner.users.delete({ path: { id: invited.id } })
          yield* owner.users.delete({ path: { id: lead.id } })
          yield* expectGone(pending)
        }))

      it.effect("a workspace deleted after the invitation drops out of it; the rest still holds", () =>
        Effect.gen(function*() {
          const owner = yield* ownerClient
          const [kept, dropped] = [yield* workspace(), yield* workspace()]
          const created = yield* owner.invitations.create({ payload: { role: "annotator", workspace_ids: [kept.id, dropped.id] } })
          yield* owner.workspaces.delete({ path: { id: dropped.id } })
          const client = yield* anonymous
          expect((yield* client.invitations.lookup({ urlParams: { token: created.token } })).workspaces).toEqual([kept.name])
          const signedIn = yield* client.invitations.accept({ payload: { ...person(), token: created.token } })
          expect((yield* (yield* asBearer(signedIn.access_token)).me.workspaces()).items.map((w) => w.name)).toEqual([kept.name])
        }))
    })
  })
}

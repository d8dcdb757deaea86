/**
 * Who may do what: Argilla's permission table, written as data (docs/explanation/security.md explains the roles).
 * `member` means "if the caller belongs to the workspace the action concerns"; owners never need membership. Rules that
 * depend on more than role and membership (a response's author, a metadata property's visibility) are checked by the
 * service that owns them, on top of the row here.
 */
import { Effect } from "effect"
import { Forbidden } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Ids.js"
import type { Role, User } from "../domain/User.js"
import { MembershipsRepo } from "./MembershipsRepo.js"

export type Grant = "yes" | "no" | "member"
type Row = { readonly [R in Exclude<Role, "owner">]: Grant }

const rows = {
  // users and workspaces
  "users.manage": { admin: "no", annotator: "no" },
  "workspaces.create": { admin: "no", annotator: "no" },
  "workspaces.delete": { admin: "no", annotator: "no" },
  "workspaces.get": { admin: "member", annotator: "member" },
  "workspaces.listUsers": { admin: "member", annotator: "no" },
  "workspaces.addUser": { admin: "no", annotator: "no" },
  "workspaces.removeUser": { admin: "member", annotator: "no" },
  // Renaming is a Gloss extension (Argilla has none): owners only, as creating and deleting.
  "workspaces.rename": { admin: "no", annotator: "no" },
  // Invitation links (a Gloss extension, services/invitations/): an admin onboards annotators into their own
  // workspaces, where Argilla lets only owners create users (docs/explanation/security.md).
  "invitations.create": { admin: "member", annotator: "no" },
  "invitations.inviteAdmins": { admin: "no", annotator: "no" },
  "invitations.list": { admin: "yes", annotator: "no" },
  // datasets and their settings
  "datasets.listInWorkspace": { admin: "member", annotator: "member" },
  "datasets.read": { admin: "member", annotator: "member" },
  "datasets.create": { admin: "member", annotator: "no" },
  "datasets.manage": { admin: "member", annotator: "no" },
  // Other people's progress (`GET /datasets/{id}/users/progress`, the `users` of `GET /datasets/{id}/progress`):
  // stricter than Argilla, which lets annotators read it; an annotator sees only their own
  // (docs/reference/compatibility.md lists it).
  "progress.others": { admin: "member", annotator: "no" },
  // records, search, responses, suggestions
  "records.list": { admin: "member", annotator: "no" },
  "records.write": { admin: "member", annotator: "no" },
  "records.read": { admin: "member", annotator: "member" },
  "records.searchOwn": { admin: "member", annotator: "member" },
  "records.searchAll": { admin: "member", annotator: "no" },
  "responses.create": { admin: "member", annotator: "member" },
  "responses.manageOthers": { admin: "member", annotator: "no" },
  "suggestions.write": { admin: "member", annotator: "no" },
  // what a reader is shown of what is not theirs (services/datasets/viewer.ts)
  "responses.readOthers": { admin: "member", annotator: "no" },
  "metadata.readHidden": { admin: "member", annotator: "no" },
  // Review (a Gloss extension, services/review/): agreement, everyone's answers in the review queue, final answers.
  // Admins review in their workspaces; an annotator reviews where a row of `workspace_reviewers` names them, which
  // services/review/ReviewRights.ts checks on top of this row. Who names reviewers: owners and member admins.
  "review.read": { admin: "member", annotator: "no" },
  "review.manageReviewers": { admin: "member", annotator: "no" },
  // Assignment (a Gloss extension, services/assignment/): assigning records, quotas, priorities, queue settings and
  // everyone's share of the work. Reading one's own queue is `records.searchOwn`.
  "assignment.manage": { admin: "member", annotator: "no" },
  // jobs and webhooks; whoever started a job may read it too (services/jobs/Jobs.ts)
  "jobs.read": { admin: "yes", annotator: "no" },
  "webhooks.manage": { admin: "no", annotator: "no" }
} as const satisfies Record<string, Row>

export type Action = keyof typeof rows

/** The row's answer for `role`: owners are granted everything. */
export const grantOf = (role: Role, action: Action): Grant => role === "owner" ? "yes" : rows[action][role]

export class Policy extends Effect.Service<Policy>()("Gloss/Policy", {
  effect: Effect.gen(function*() {
    const memberships = yield* MembershipsRepo

    const isMember = (user: User, workspaceId: WorkspaceId) =>
      memberships.isMember({ user_id: user.id, workspace_id: workspaceId }).pipe(
        Effect.map((found) => found._tag === "Some")
      )

    /** Whether `user` may do `action` (in `workspaceId`, for rows that depend on membership). */
    const can = (user: User, action: Action, workspaceId?: WorkspaceId): Effect.Effect<boolean> => {
      const grant = grantOf(user.role, action)
      if (grant === "member") return workspaceId === undefined ? Effect.succeed(false) : isMember(user, workspaceId)
      return Effect.succeed(grant === "yes")
    }

    /** Fails with 403 "Operation not allowed" unless `can`. */
    const require = (user: User, action: Action, workspaceId?: WorkspaceId): Effect.Effect<void, Forbidden> =>
      Effect.flatMap(can(user, action, workspaceId), (allowed) =>
        allowed ? Effect.void : Effect.fail(Forbidden.operationNotAllowed()))

    return { can, require, isMember } as const
  }),
  dependencies: [MembershipsRepo.Default]
}) {}

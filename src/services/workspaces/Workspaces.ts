import { Effect, Option } from "effect"
import { Conflict, NotFound, Unprocessable } from "../../domain/Errors.js"
import { type UserId, WorkspaceId } from "../../domain/Ids.js"
import type { Role, User } from "../../domain/User.js"
import type { Workspace, WorkspaceCreate } from "../../domain/Workspace.js"
import { now } from "../clock.js"
import { Database } from "../database/Database.js"
import { isForeignKeyViolation } from "../database/errors.js"
import { orNotFound } from "../found.js"
import { MembershipsRepo } from "../MembershipsRepo.js"
import { Policy } from "../Policy.js"
import { toUser } from "../users/Users.js"
import { UsersRepo } from "../users/UsersRepo.js"
import { WorkspacesRepo } from "./WorkspacesRepo.js"
import { newId } from "../ids.js"


export class Workspaces extends Effect.Service<Workspaces>()("Gloss/Workspaces", {
  effect: Effect.gen(function*() {
    const repo = yield* WorkspacesRepo
    const users = yield* UsersRepo
    const policy = yield* Policy
    const db = yield* Database
    const memberships = yield* MembershipsRepo

    const find = (id: WorkspaceId) => repo.findById(id).pipe(orNotFound("Workspace", id))

    // An id in the body is ignored, as Argilla's create schema has none: the server always issues a new one.
    const createTrusted = Effect.fn("Workspaces.createTrusted")(function*(input: WorkspaceCreate) {
      const at = yield* now
      const row = { id: WorkspaceId.make(newId()), name: input.name, inserted_at: at, updated_at: at }
      const inserted = yield* db.write(repo.insert(row))
      if (Option.isSome(inserted)) return inserted.value
      return yield* new Conflict({ detail: `Workspace name \`${input.name}\` is not unique` })
    })

    const create = Effect.fn("Workspaces.create")(function*(actor: User, input: WorkspaceCreate) {
      yield* policy.require(actor, "workspaces.create")
      return yield* createTrusted(input)
    })

    // The contract checks the policy before looking the workspace up: a non-member cannot tell which ids exist.
    const get = Effect.fn("Workspaces.get")(function*(actor: User, id: WorkspaceId) {
      yield* policy.require(actor, "workspaces.get", id)
      return yield* find(id)
    })

    const remove = Effect.fn("Workspaces.delete")(function*(actor: User, id: WorkspaceId) {
      yield* policy.require(actor, "workspaces.delete")
      const workspace = yield* find(id)
      const holdsDatasets = new Conflict({
        detail: `Cannot delete the workspace \`${id}\`. This workspace has some datasets linked`
      })
      if ((yield* repo.countDatasets(id)) > 0) return yield* holdsDatasets
      // A dataset created between the check and the delete is caught by the foreign key (`on delete restrict`).
      yield* db.write(repo.delete(id)).pipe(
        Effect.catchSomeDefect((defect) => isForeignKeyViolation(defect) ? Option.some(Effect.fail(holdsDatasets)) : Option.none())
      )
      return workspace
    })

    const listUsers = Effect.fn("Workspaces.listUsers")(function*(actor: User, id: WorkspaceId) {
      yield* policy.require(actor, "workspaces.listUsers", id)
      yield* find(id)
      return (yield* users.listByWorkspace(id)).map(toUser)
    })

    const addUserTrusted = Effect.fn("Workspaces.addUserTrusted")(function*(id: WorkspaceId, userId: UserId) {
      yield* find(id)
      const user = yield* users.findById(userId).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(new Unprocessable({ detail: `User with id \`${userId}\` not found` })),
          onSome: Effect.succeed
        }))
      )
      const at = yield* now
      const added = yield* db.write(
        memberships.addMember({ id: newId(), workspace_id: id, user_id: userId, inserted_at: at, updated_at: at })
      )
      if (Option.isNone(added)) {
        return yield* new Conflict({
          detail: `User with id \`${userId}\` is already a member of workspace with id \`${id}\``
        })
      }
      return toUser(user)
    })

    const addUser = Effect.fn("Workspaces.addUser")(function*(actor: User, id: WorkspaceId, userId: UserId) {
      yield* policy.require(actor, "workspaces.addUser")
      return yield* addUserTrusted(id, userId)
    })

    // The membership is looked up before the policy is checked (the contract's order for this endpoint).
    const removeUser = Effect.fn("Workspaces.removeUser")(function*(actor: User, id: WorkspaceId, userId: UserId) {
      const membership = yield* memberships.isMember({ workspace_id: id, user_id: userId })
      if (Option.isNone(membership)) {
        return yield* new NotFound({
          detail: `WorkspaceUser not found filtering by workspace_id=${id}, user_id=${userId}`
        })
      }
      yield* policy.require(actor, "workspaces.removeUser", id)
      const user = yield* users.findById(userId)
      yield* db.write(memberships.removeMember({ workspace_id: id, user_id: userId }))
      return toUser(yield* Effect.succeed(user).pipe(orNotFound("User", userId)))
    })

    /** An owner belongs everywhere; anyone else to the workspaces they are a member of. */
    const workspacesOf = (user: { readonly id: UserId; readonly role: Role }): Effect.Effect<ReadonlyArray<Workspace>> =>
      user.role === "owner" ? repo.list : repo.listByMember(user.id)

    const listOfUser = Effect.fn("Workspaces.listOfUser")(function*(actor: User, userId: UserId) {
      yield* policy.require(actor, "users.manage")
      return yield* workspacesOf(yield* users.findById(userId).pipe(orNotFound("User", userId)))
    })

    return {
      create,
      createTrusted,
      get,
      delete: remove,
      listUsers,
      addUser,
      addUserTrusted,
      removeUser,
      workspacesOf,
      listOfUser,
      findByName: repo.findByName
    } as const
  }),
  dependencies: [WorkspacesRepo.Default, UsersRepo.Default, MembershipsRepo.Default, Policy.Default, Database.Default]
}) {}

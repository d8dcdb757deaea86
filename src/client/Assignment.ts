/**
 * `client.assignment` (a Gloss extension under `/api/gloss`): a lead's queue settings, assigning records to people or
 * a group, removing and moving assignments, quotas and priorities, everyone's share; and the caller's own queue and
 * its leases. People are named by username, id or user object; usernames are found among the dataset's workspace
 * members, the only users the server assigns to.
 */
import { Array as Arr, Effect, Option, Schema } from "effect"
import type { QueueSettingsUpdate } from "../domain/Assignment.js"
import { DatasetId, RecordId, UserId } from "../domain/Ids.js"
import type { SearchRecordsQuery } from "../domain/Search.js"
import { type InvalidId, MissingLookupArgument, UserNotFound } from "./Errors.js"
import { parseId } from "./lookup.js"
import type { DatasetRef } from "./Records.js"
import type { Transport } from "./Transport.js"

/** A user as assignment calls accept one: a username, an id, or an object with its id (a `User`). */
export type AssigneeRef = string | { readonly id: string }

type RecordRef = string | { readonly id: string }

/** Which records: those named (ids or records), every record `query` matches, both (the named ones it matches), or,
 * naming neither, every record of the dataset. */
export interface RecordSelectionOptions {
  readonly recordIds?: ReadonlyArray<RecordRef> | undefined
  readonly query?: SearchRecordsQuery | undefined
}

export interface AssignOptions extends RecordSelectionOptions {
  /** One user or a group; each must be a member of the dataset's workspace. */
  readonly users: ReadonlyArray<AssigneeRef>
  /** How many of `users` get each record, the least loaded first; default (server): all of them. */
  readonly perRecord?: number | undefined
}

export interface UnassignOptions extends RecordSelectionOptions {
  /** Whose assignments go; default: everybody's. */
  readonly users?: ReadonlyArray<AssigneeRef> | undefined
}

export interface MoveOptions extends RecordSelectionOptions {
  /** Whose unanswered assignments move. */
  readonly from: AssigneeRef
  /** Who takes them, one user per record, the least loaded first. */
  readonly to: ReadonlyArray<AssigneeRef>
}

export interface PrioritizeOptions extends RecordSelectionOptions {
  /** Higher comes first in every queue; every record starts at 0. */
  readonly priority: number
}

export interface AssignmentQueueOptions {
  /** Default: 0. */
  readonly offset?: number | undefined
  /** 1 to 1 000; default (server): 50. */
  readonly limit?: number | undefined
  /** As `records.stream`'s: `responses`, `suggestions`, `vectors`, `vectors:<name>`. */
  readonly include?: ReadonlyArray<string> | undefined
  /** Narrows the queue to the records a search matches; its order stays the queue's. */
  readonly query?: SearchRecordsQuery | undefined
  /** Whether the page's pool records are reserved for the caller; default (server): true. */
  readonly reserve?: boolean | undefined
}

const idOf = (ref: { readonly id: string } | string) => (typeof ref === "string" ? ref : ref.id)

/** A string that is a UUID names a user by id; any other string is a username. */
const isUuid = Schema.is(Schema.UUID)
const isId = (ref: AssigneeRef) => typeof ref !== "string" || isUuid(ref)

/** `{ [key]: value }`, or nothing when the value is left out (so that the server's default applies). */
const given = <K extends string, V>(key: K, value: V | undefined) =>
  // Why the cast: a computed key widens to an index signature, which TypeScript cannot narrow back to `K`.
  (value === undefined ? {} : { [key]: value }) as { readonly [P in K]?: V }

export const makeAssignment = ({ api, call }: Transport) => {
  const dataset = (ref: DatasetRef) => parseId(DatasetId, "Dataset", ref.id)

  /**
   * The users' ids: objects and UUIDs as they are, usernames looked up among the dataset's workspace members (one
   * listing, only when a username is given).
   */
  const userIds = (datasetId: DatasetId, refs: ReadonlyArray<AssigneeRef>) =>
    Effect.gen(function*() {
      let members: ReadonlyArray<{ readonly id: string; readonly username: string }> = []
      if (!refs.every(isId)) {
        const { workspace_id } = yield* call(api.datasets.get({ path: { id: datasetId } }))
        members = (yield* call(api.workspaces.listUsers({ path: { id: workspace_id } }))).items
      }
      return yield* Effect.forEach(refs, (ref): Effect.Effect<UserId, InvalidId | UserNotFound> => {
        if (isId(ref)) return parseId(UserId, "User", idOf(ref))
        return Option.match(Arr.findFirst(members, (member) => member.username === ref), {
          onNone: () => Effect.fail(new UserNotFound({ user: idOf(ref) })),
          onSome: (member) => parseId(UserId, "User", member.id)
        })
      })
    })

  const recordIds = (refs: ReadonlyArray<RecordRef> | undefined) =>
    refs === undefined
      ? Effect.succeed(undefined)
      : Effect.forEach(refs, (ref) => parseId(RecordId, "Record", idOf(ref)))

  const selection = (options: RecordSelectionOptions) =>
    Effect.map(recordIds(options.recordIds), (ids) => ({
      ...given("record_ids", ids),
      ...given("query", options.query)
    }))

  /** Readable by every member of the workspace. */
  const settings = Effect.fn("GlossClient.assignment.settings")(function*(ref: DatasetRef) {
    return yield* call(api.assignment.settings({ path: { id: yield* dataset(ref) } }))
  })

  /** Settings left out keep their value; `quota: null` removes the dataset's quota. */
  const updateSettings = Effect.fn("GlossClient.assignment.updateSettings")(
    function*(ref: DatasetRef, update: QueueSettingsUpdate) {
      return yield* call(api.assignment.updateSettings({ path: { id: yield* dataset(ref) }, payload: update }))
    }
  )

  /** Per workspace member: assigned, done, reserved, waiting, quota; and the dataset's settings. */
  const summary = Effect.fn("GlossClient.assignment.summary")(function*(ref: DatasetRef) {
    return yield* call(api.assignment.summary({ path: { id: yield* dataset(ref) } }))
  })

  const assign = Effect.fn("GlossClient.assignment.assign")(function*(ref: DatasetRef, options: AssignOptions) {
    const id = yield* dataset(ref)
    const [first, ...rest] = yield* userIds(id, options.users)
    if (first === undefined) return yield* new MissingLookupArgument({ expected: "'users'" })
    return yield* call(api.assignment.assign({
      path: { id },
      payload: { ...(yield* selection(options)), users: [first, ...rest], ...given("per_record", options.perRecord) }
    }))
  })

  const unassign = Effect.fn("GlossClient.assignment.unassign")(
    function*(ref: DatasetRef, options: UnassignOptions = {}) {
      const id = yield* dataset(ref)
      const users = options.users === undefined ? undefined : yield* userIds(id, options.users)
      return yield* call(api.assignment.unassign({
        path: { id },
        payload: { ...(yield* selection(options)), ...given("users", users) }
      }))
    }
  )

  /** Only what `from` has not submitted or discarded moves. */
  const move = Effect.fn("GlossClient.assignment.move")(function*(ref: DatasetRef, options: MoveOptions) {
    const id = yield* dataset(ref)
    const [from, ...to] = yield* userIds(id, [options.from, ...options.to])
    const [firstTo, ...restTo] = to
    if (from === undefined || firstTo === undefined) return yield* new MissingLookupArgument({ expected: "'to'" })
    return yield* call(api.assignment.move({
      path: { id },
      payload: { ...(yield* selection(options)), from, to: [firstTo, ...restTo] }
    }))
  })

  /** `null` takes the user's own quota away (the dataset's applies again); answers the summary. */
  const setQuota = Effect.fn("GlossClient.assignment.setQuota")(
    function*(ref: DatasetRef, user: AssigneeRef, quota: number | null) {
      const id = yield* dataset(ref)
      const [user_id] = yield* userIds(id, [user])
      if (user_id === undefined) return yield* new UserNotFound({ user: idOf(user) })
      return yield* call(api.assignment.setQuota({ path: { id }, payload: { user_id, quota } }))
    }
  )

  const prioritize = Effect.fn("GlossClient.assignment.prioritize")(
    function*(ref: DatasetRef, options: PrioritizeOptions) {
      return yield* call(api.assignment.prioritize({
        path: { id: yield* dataset(ref) },
        payload: { ...(yield* selection(options)), priority: options.priority }
      }))
    }
  )

  /** A page of the caller's queue; its pool records are reserved for the caller unless `reserve: false`. */
  const queue = Effect.fn("GlossClient.assignment.queue")(
    function*(ref: DatasetRef, options: AssignmentQueueOptions = {}) {
      return yield* call(api.assignment.queue({
        path: { id: yield* dataset(ref) },
        urlParams: {
          ...given("offset", options.offset),
          ...given("limit", options.limit),
          ...given("include", options.include)
        },
        payload: { ...given("query", options.query), ...given("reserve", options.reserve) }
      }))
    }
  )

  /** Gives back every pool record reserved for the caller in the dataset. */
  const release = Effect.fn("GlossClient.assignment.release")(function*(ref: DatasetRef) {
    return yield* call(api.assignment.release({ path: { id: yield* dataset(ref) } }))
  })

  return { settings, updateSettings, summary, assign, unassign, move, setQuota, prioritize, queue, release } as const
}

export type Assignment = ReturnType<typeof makeAssignment>

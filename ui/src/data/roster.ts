/**
 * The people and workspaces screens' logic that needs no server: who belongs where (from one members list per
 * workspace), which page of a long user list to show, what a new password must be, and an invitation's link.
 * Kept apart from the calls so the unit tests run without a browser.
 */

export interface Named {
  readonly id: string
  readonly name: string
}

export interface Person {
  readonly id: string
  readonly username: string
  readonly first_name: string
  readonly last_name: string | null
  readonly role: string
}

/**
 * Each user's workspaces, by user id, sorted by name: the People table's column, built from the workspaces'
 * member lists (one request per workspace, never one per user).
 */
export const workspacesByUser = (
  memberships: ReadonlyArray<{ readonly workspace: Named; readonly members: ReadonlyArray<{ readonly id: string }> }>
): ReadonlyMap<string, ReadonlyArray<Named>> => {
  const byUser = new Map<string, Array<Named>>()
  for (const { members, workspace } of memberships) {
    for (const member of members) {
      const list = byUser.get(member.id)
      if (list === undefined) byUser.set(member.id, [workspace])
      else list.push(workspace)
    }
  }
  for (const list of byUser.values()) list.sort((a, b) => a.name.localeCompare(b.name))
  return byUser
}

/** How many datasets each workspace holds, by workspace id. */
export const datasetCounts = (datasets: ReadonlyArray<{ readonly workspace_id: string }>): ReadonlyMap<string, number> => {
  const counts = new Map<string, number>()
  for (const { workspace_id } of datasets) counts.set(workspace_id, (counts.get(workspace_id) ?? 0) + 1)
  return counts
}

export const fullName = (person: Pick<Person, "first_name" | "last_name">) =>
  [person.first_name, person.last_name ?? ""].filter((part) => part !== "").join(" ")

/** The users whose username or name contains `needle` (any case), of `role` unless it is "". */
export const filterPeople = <P extends Person>(people: ReadonlyArray<P>, needle: string, role: string): Array<P> => {
  const wanted = needle.trim().toLowerCase()
  return people.filter((p) =>
    (role === "" || p.role === role) &&
    (wanted === "" || p.username.toLowerCase().includes(wanted) || fullName(p).toLowerCase().includes(wanted))
  )
}

export interface Page<A> {
  readonly items: ReadonlyArray<A>
  /** 1-based, clamped to the pages there are */
  readonly page: number
  readonly pages: number
  /** 1-based positions of the first and last item shown (0 and 0 when there is none) */
  readonly from: number
  readonly to: number
}

/** One page of `size` items; a page past the end shows the last one. */
export const pageOf = <A>(items: ReadonlyArray<A>, page: number, size: number): Page<A> => {
  const pages = Math.max(1, Math.ceil(items.length / size))
  const current = Math.min(Math.max(1, Math.floor(page)), pages)
  const start = (current - 1) * size
  const shown = items.slice(start, start + size)
  return { items: shown, page: current, pages, from: shown.length === 0 ? 0 : start + 1, to: start + shown.length }
}

/** The server's limits on a password (src/domain/User.ts): checked here first, to say so before sending it. */
export const PASSWORD_MIN = 8
export const PASSWORD_MAX = 100

/** Why `password` (typed twice) cannot be used, or undefined when it can. */
export const passwordProblem = (password: string, repeated: string): string | undefined => {
  if (password.length < PASSWORD_MIN) return `The password needs at least ${PASSWORD_MIN} characters.`
  if (password.length > PASSWORD_MAX) return `The password can have at most ${PASSWORD_MAX} characters.`
  if (password !== repeated) return "The two passwords differ."
  return undefined
}

/** The link an invitee opens: the app's `/invite` page with the token (`appBase` is where the app is served). */
export const inviteLink = (appBase: string, token: string) =>
  `${appBase.replace(/\/$/, "")}/invite?token=${encodeURIComponent(token)}`

/** "in 3 days", "in 5 hours", "expired": how long an invitation has left, for the list of pending ones. */
export const expiresIn = (expiresAt: Date, now: Date): string => {
  const hours = (expiresAt.getTime() - now.getTime()) / 3_600_000
  if (hours <= 0) return "expired"
  if (hours < 1) return "in less than an hour"
  if (hours < 48) return `in ${Math.floor(hours)} hour${Math.floor(hours) === 1 ? "" : "s"}`
  return `in ${Math.round(hours / 24)} days`
}

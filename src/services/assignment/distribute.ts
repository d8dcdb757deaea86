/**
 * How records assigned to a group are shared out: each record goes to `perRecord` of the group's users, those with
 * the fewest assigned records in the dataset first (ties in the order the users were given), skipping users who
 * have it already. Pure, so the balance is tested on its own.
 */
export interface Distribution {
  readonly pairs: ReadonlyArray<readonly [recordId: string, userId: string]>
}

export const distribute = (
  recordIds: ReadonlyArray<string>,
  users: ReadonlyArray<string>,
  perRecord: number,
  /** Each user's assigned records in the dataset now. */
  load: ReadonlyMap<string, number>,
  /** Per record, the users it is assigned to already. */
  existing: ReadonlyMap<string, ReadonlySet<string>>
): Distribution => {
  const group = [...new Set(users)]
  const count = new Map(group.map((user) => [user, load.get(user) ?? 0]))
  const rank = new Map(group.map((user, i) => [user, i]))
  const pairs: Array<readonly [string, string]> = []
  const take = Math.min(perRecord, group.length)
  for (const recordId of recordIds) {
    const has = existing.get(recordId)
    const already = group.filter((user) => has?.has(user) === true).length
    const wanted = take - already
    if (wanted <= 0) continue
    const chosen = group.filter((user) => has?.has(user) !== true)
      .sort((a, b) => (count.get(a) ?? 0) - (count.get(b) ?? 0) || (rank.get(a) ?? 0) - (rank.get(b) ?? 0))
      .slice(0, wanted)
    for (const user of chosen) {
      pairs.push([recordId, user])
      count.set(user, (count.get(user) ?? 0) + 1)
    }
  }
  return { pairs }
}

import { describe, expect, it } from "vitest"
import {
  datasetCounts,
  expiresIn,
  filterPeople,
  fullName,
  inviteLink,
  pageOf,
  passwordProblem,
  workspacesByUser
} from "../../src/data/roster.js"

const person = (username: string, first_name: string, last_name: string | null, role: string) => ({
  id: `id-${username}`,
  username,
  first_name,
  last_name,
  role
})

describe("the People and Workspaces screens' logic", () => {
  it("turns one members list per workspace into each user's workspaces, sorted by name", () => {
    const research = { id: "w1", name: "research" }
    const archive = { id: "w2", name: "archive" }
    const byUser = workspacesByUser([
      { workspace: research, members: [{ id: "u1" }, { id: "u2" }] },
      { workspace: archive, members: [{ id: "u1" }] }
    ])
    expect(byUser.get("u1")).toEqual([archive, research])
    expect(byUser.get("u2")).toEqual([research])
    expect(byUser.get("u3")).toBeUndefined()
  })

  it("counts the datasets of each workspace", () => {
    const counts = datasetCounts([{ workspace_id: "w1" }, { workspace_id: "w2" }, { workspace_id: "w1" }])
    expect([...counts]).toEqual([["w1", 2], ["w2", 1]])
  })

  it("finds people by username or full name, in any case, and by role", () => {
    const people = [person("ada", "Ada", "Lovelace", "owner"), person("grace", "Grace", null, "annotator"), person("alan", "Alan", "Turing", "admin")]
    expect(filterPeople(people, "LOVE", "").map((p) => p.username)).toEqual(["ada"])
    expect(filterPeople(people, " a", "").map((p) => p.username)).toEqual(["ada", "grace", "alan"])
    expect(filterPeople(people, "a", "admin").map((p) => p.username)).toEqual(["alan"])
    expect(filterPeople(people, "ada lovelace", "").map((p) => p.username)).toEqual(["ada"])
    expect(fullName(people[1] ?? person("", "", null, ""))).toBe("Grace")
  })

  it("pages a thousand users fifty at a time, clamping a page out of range", () => {
    const items = Array.from({ length: 1000 }, (_, i) => i)
    expect(pageOf(items, 1, 50)).toMatchObject({ page: 1, pages: 20, from: 1, to: 50 })
    const last = pageOf(items, 20, 50)
    expect(last.items[49]).toBe(999)
    expect(pageOf(items, 99, 50)).toMatchObject({ page: 20, from: 951, to: 1000 })
    expect(pageOf(items, 0, 50).page).toBe(1)
    expect(pageOf(items.slice(0, 3), 1, 50)).toMatchObject({ pages: 1, from: 1, to: 3 })
    expect(pageOf([], 1, 50)).toMatchObject({ items: [], page: 1, pages: 1, from: 0, to: 0 })
  })

  it("says what is wrong with a new password before sending it", () => {
    expect(passwordProblem("short", "short")).toBe("The password needs at least 8 characters.")
    expect(passwordProblem("x".repeat(101), "x".repeat(101))).toBe("The password can have at most 100 characters.")
    expect(passwordProblem("long-enough", "long-enougH")).toBe("The two passwords differ.")
    expect(passwordProblem("long-enough", "long-enough")).toBeUndefined()
  })

  it("builds the invitation link under the app's base, with the token escaped", () => {
    expect(inviteLink("http://gloss.example/team/", "a+b/c")).toBe("http://gloss.example/team/invite?token=a%2Bb%2Fc")
    expect(inviteLink("http://gloss.example", "abc")).toBe("http://gloss.example/invite?token=abc")
  })

  it("says how long an invitation has left", () => {
    const now = new Date("2026-01-01T00:00:00Z")
    const later = (hours: number) => new Date(now.getTime() + hours * 3_600_000)
    expect(expiresIn(later(-1), now)).toBe("expired")
    expect(expiresIn(later(0.5), now)).toBe("in less than an hour")
    expect(expiresIn(later(1), now)).toBe("in 1 hour")
    expect(expiresIn(later(23.99), now)).toBe("in 23 hours")
    expect(expiresIn(later(7 * 24), now)).toBe("in 7 days")
    expect(expiresIn(later(71.9), now)).toBe("in 3 days")
  })
})

/**
 * The People table at a thousand users, and the home page's empty state for an owner with no workspace, rendered
 * from a filled query cache (no server): fifty rows a page, a search and a role filter that narrow them, the
 * workspaces column from the members lists; a link to the Workspaces page where an annotator is told to ask.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query"
import axe from "axe-core"
import { Schema } from "effect"
import type { ReactNode } from "react"
import { describe, expect, it } from "vitest"
import { render } from "vitest-browser-react"
import { User } from "../../../src/domain/User.js"
import { me, myDatasets, myWorkspaces } from "../../src/data/queries.js"
import { workspacesByUser } from "../../src/data/roster.js"
import { Home } from "../../src/screens/Home.js"
import { UserTable } from "../../src/screens/people/UserTable.js"

const AT = "2026-01-01T00:00:00"
const ROLES = ["annotator", "annotator", "admin", "owner"] as const

const user = (i: number) =>
  Schema.decodeUnknownSync(User)({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    username: `user-${String(i).padStart(4, "0")}`,
    first_name: i === 777 ? "Ada" : `First${i}`,
    last_name: i === 777 ? "Lovelace" : null,
    role: ROLES[i % ROLES.length],
    inserted_at: AT,
    updated_at: AT
  })

const USERS = Array.from({ length: 1000 }, (_, i) => user(i + 1))
const research = { id: "w1", name: "research" }

const axeViolations = async (root: Element) => {
  const result = await axe.run(root)
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)
}

const withCache = (fill: (client: QueryClient) => void, node: ReactNode) => {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } })
  fill(client)
  return <QueryClientProvider client={client}>{node}</QueryClientProvider>
}

describe("People at a thousand users", () => {
  it("shows fifty a page, pages on, and narrows by name and role", async () => {
    const byUser = workspacesByUser([{ workspace: research, members: USERS.slice(0, 10) }])
    const screen = render(<UserTable users={USERS} workspacesOf={byUser} onManage={() => {}} />)
    await expect.element(screen.getByRole("status")).toHaveTextContent("Users 1–50 of 1000")
    expect(screen.getByRole("row").elements()).toHaveLength(51)
    // Sorted by username: the first rows are user-0001…; an owner is in every workspace.
    await expect.element(screen.getByRole("row", { name: /^user-0001/ })).toHaveTextContent("research")
    await expect.element(screen.getByRole("row", { name: /^user-0003/ })).toHaveTextContent("All (owner)")
    await expect.element(screen.getByRole("row", { name: /^user-0012/ })).toHaveTextContent("None")
    expect(await axeViolations(screen.container)).toEqual([])

    await screen.getByRole("button", { name: "Next" }).click()
    await expect.element(screen.getByRole("status")).toHaveTextContent("Users 51–100 of 1000")
    await expect.element(screen.getByText("Page 2 of 20")).toBeVisible()
    expect(new URLSearchParams(window.location.search).get("page")).toBe("2")

    await screen.getByRole("searchbox").fill("lovelace")
    await expect.element(screen.getByRole("status")).toHaveTextContent("Users 1–1 of 1")
    await expect.element(screen.getByRole("row", { name: /^user-0777/ })).toHaveTextContent("Ada Lovelace")
    await screen.getByRole("searchbox").fill("")
    await screen.getByRole("combobox", { name: "Role" }).selectOptions("admin")
    await expect.element(screen.getByRole("status")).toHaveTextContent("Users 1–50 of 250")
  })
})

describe("the home page of an owner with no workspace", () => {
  it("points to the Workspaces page instead of telling them to ask an owner", async () => {
    const owner = user(3)
    const screen = render(withCache((client) => {
      client.setQueryData(me.queryKey, owner)
      client.setQueryData(myWorkspaces.queryKey, [])
      client.setQueryData(myDatasets.queryKey, [])
    }, <Home />))
    await expect.element(screen.getByRole("heading", { name: "No workspaces yet" })).toBeVisible()
    await expect.element(screen.getByRole("link", { name: "Create a workspace" })).toHaveAttribute("href", "/workspaces")
    expect(screen.container.textContent).not.toContain("Ask an owner")
  })

  it("an annotator with no dataset is still told to ask an owner or admin", async () => {
    const screen = render(withCache((client) => {
      client.setQueryData(me.queryKey, user(1))
      client.setQueryData(myWorkspaces.queryKey, [])
      client.setQueryData(myDatasets.queryKey, [])
    }, <Home />))
    await expect.element(screen.getByRole("heading", { name: "No datasets yet" })).toBeVisible()
    expect(screen.container.textContent).toContain("Ask an owner or admin to add you to a workspace.")
  })
})

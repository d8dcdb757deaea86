/**
 * Every user, one page of 50 at a time, filtered by name and role (in the URL): username, name, role, workspaces,
 * and a button that opens their changes. A thousand users are one list call; the workspaces column comes from one
 * members list per workspace (`workspacesByUser`).
 */
import type { User } from "../../../../src/domain/User.js"
import { filterPeople, fullName, type Named, pageOf } from "../../data/roster.js"
import { setSearch, useLocation } from "../../router.js"

const PAGE_SIZE = 50

export const UserTable = (props: {
  readonly users: ReadonlyArray<User>
  readonly workspacesOf: ReadonlyMap<string, ReadonlyArray<Named>> | undefined
  readonly onManage: (user: User) => void
}) => {
  const { search } = useLocation()
  const needle = search.get("q") ?? ""
  const role = search.get("role") ?? ""
  const matching = filterPeople(props.users, needle, role).sort((a, b) => a.username.localeCompare(b.username))
  const page = pageOf(matching, Number(search.get("page") ?? "1") || 1, PAGE_SIZE)
  return (
    <section aria-labelledby="users-title" className="people-users">
      <h2 id="users-title">Users</h2>
      <div className="toolbar">
        <label>
          Search
          <input type="search" value={needle} placeholder="Username or name"
            onChange={(e) => setSearch({ q: e.target.value, page: undefined })} />
        </label>
        <label>
          Role
          <select value={role} onChange={(e) => setSearch({ role: e.target.value, page: undefined })}>
            <option value="">Every role</option>
            <option value="owner">Owners</option>
            <option value="admin">Admins</option>
            <option value="annotator">Annotators</option>
          </select>
        </label>
      </div>
      <p role="status" className="muted">
        {matching.length === 0 ? "No user matches." : `Users ${page.from}–${page.to} of ${matching.length}`}
      </p>
      {page.items.length === 0 ? null : (
        <table className="datasets people-table">
          <thead>
            <tr>
              <th scope="col">Username</th>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Workspaces</th>
              <th scope="col"><span className="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((user) => (
              <tr key={user.id}>
                <td data-label="Username">{user.username}</td>
                <td data-label="Name">{fullName(user)}</td>
                <td data-label="Role">{user.role}</td>
                <td data-label="Workspaces">
                  {props.workspacesOf === undefined ? "…"
                    : user.role === "owner" ? "All (owner)"
                    : (props.workspacesOf.get(user.id) ?? []).map((w) => w.name).join(", ") || "None"}
                </td>
                <td data-label="Actions">
                  <button type="button" onClick={() => props.onManage(user)}>
                    Manage<span className="visually-hidden"> {user.username}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {page.pages > 1 ? (
        <nav aria-label="Pages of users" className="people-pages">
          <button type="button" disabled={page.page <= 1} onClick={() => setSearch({ page: String(page.page - 1) })}>Previous</button>
          <span>Page {page.page} of {page.pages}</span>
          <button type="button" disabled={page.page >= page.pages} onClick={() => setSearch({ page: String(page.page + 1) })}>Next</button>
        </nav>
      ) : null}
    </section>
  )
}

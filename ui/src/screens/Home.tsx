/** `/`: my datasets, filtered by workspace and name (both in the URL), with each dataset's progress. */
import { useQuery } from "@tanstack/react-query"
import type { Dataset } from "../../../src/domain/Dataset.js"
import { errorMessage } from "../data/client.js"
import { me, myDatasets, myWorkspaces, teamProgress } from "../data/queries.js"
import { canManage } from "../data/settings.js"
import { Link, setSearch, useLocation } from "../router.js"

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" })

const Progress = (props: { readonly dataset: Dataset }) => {
  const { data, isError } = useQuery(teamProgress(props.dataset.id))
  if (isError) return <span className="muted">—</span>
  if (data === undefined) return <span className="muted">…</span>
  const label = `${data.completed} of ${data.total} completed`
  return (
    <span className="progress-cell" title={`${label}, ${data.pending} left`}>
      <progress max={Math.max(1, data.total)} value={data.completed} aria-label={`${props.dataset.name}: ${label}`} />
      <span>{label}</span>
    </span>
  )
}

export const Home = () => {
  const { search } = useLocation()
  const workspace = search.get("workspace") ?? ""
  const name = search.get("q") ?? ""
  const datasets = useQuery(myDatasets)
  const role = useQuery(me).data?.role
  const manager = canManage(role)
  const workspacesQuery = useQuery(myWorkspaces)
  const workspacesLoaded = workspacesQuery.data !== undefined
  const workspaces = workspacesQuery.data ?? []
  const workspaceName = new Map(workspaces.map((w) => [w.id as string, w.name]))
  const needle = name.trim().toLowerCase()
  const shown = (datasets.data ?? [])
    .filter((d) => workspace === "" || d.workspace_id === workspace)
    .filter((d) => needle === "" || d.name.toLowerCase().includes(needle))
    .toSorted((a, b) => b.last_activity_at.getTime() - a.last_activity_at.getTime())

  return (
    <main id="main" className="page">
      <h1>Datasets</h1>
      {manager ? <p><Link to="/new-dataset" className="button">New dataset</Link></p> : null}
      <div className="toolbar">
        <label>
          Workspace
          <select value={workspace} onChange={(e) => setSearch({ workspace: e.target.value })}>
            <option value="">All workspaces</option>
            {workspaces.map((w) => <option key={w.id} value={w.id}>{w.name}</option>)}
          </select>
        </label>
        <label>
          Name
          <input type="search" value={name} placeholder="Search datasets" onChange={(e) => setSearch({ q: e.target.value })} />
        </label>
      </div>
      {datasets.isPending ? <p>Loading datasets…</p> : null}
      {datasets.isError ? <p role="alert">{errorMessage(datasets.error)}</p> : null}
      {datasets.data !== undefined && datasets.data.length === 0 && role === "owner" && workspacesLoaded &&
          workspaces.length === 0 ? (
        <section className="empty">
          <h2>No workspaces yet</h2>
          <p>
            Datasets live in workspaces. <Link to="/workspaces">Create a workspace</Link> first, then add people to it
            from the Workspaces page or invite them from <Link to="/users">People</Link>.
          </p>
        </section>
      ) : datasets.data !== undefined && datasets.data.length === 0 ? (
        <section className="empty">
          <h2>No datasets yet</h2>
          <p>
            {manager ? <><Link to="/new-dataset">Create one here</Link>, or with</> : "Datasets are created with"} the Python SDK
            (<code>rg.Dataset(...).create()</code>) or the API (<a href="api/v1/docs">API docs</a>). Ask an owner or admin
            to add you to a workspace.
          </p>
        </section>
      ) : null}
      {shown.length > 0 ? (
        <table className="datasets">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Workspace</th>
              <th scope="col">Progress</th>
              <th scope="col">Created</th>
              <th scope="col">Last activity</th>
              {manager ? <th scope="col"><span className="visually-hidden">Actions</span></th> : null}
            </tr>
          </thead>
          <tbody>
            {shown.map((d) => (
              <tr key={d.id}>
                <td data-label="Name"><Link to={`/dataset/${d.id}/annotation-mode`}>{d.name}</Link></td>
                <td data-label="Workspace">{workspaceName.get(d.workspace_id) ?? "—"}</td>
                <td data-label="Progress"><Progress dataset={d} /></td>
                <td data-label="Created"><time dateTime={d.inserted_at.toISOString()}>{dateFormat.format(d.inserted_at)}</time></td>
                <td data-label="Last activity">
                  <time dateTime={d.last_activity_at.toISOString()}>{dateFormat.format(d.last_activity_at)}</time>
                </td>
                {manager ? (
                  <td data-label="Settings">
                    <Link to={`/dataset/${d.id}/settings`}>Settings<span className="visually-hidden"> of {d.name}</span></Link>
                    {" · "}
                    <Link to={`/dataset/${d.id}/import`}>Import<span className="visually-hidden"> records into {d.name}</span></Link>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      ) : datasets.data !== undefined && datasets.data.length > 0 ? <p>No dataset matches these filters.</p> : null}
    </main>
  )
}

/**
 * `/workspaces`: every workspace the caller sees (owners: all) with its members and datasets; owners create, rename
 * and delete them and add members; admins see their own and remove members. The open members panel is in the URL
 * (`?members=<id>`).
 */
import { useQuery } from "@tanstack/react-query"
import { type FormEvent, useState } from "react"
import { canInvite, createWorkspace, fresh, isOwner, memberships, users as usersQuery } from "../../data/accounts.js"
import { errorMessage } from "../../data/client.js"
import { me as meQuery, myDatasets, myWorkspaces } from "../../data/queries.js"
import { datasetCounts } from "../../data/roster.js"
import { Link, setSearch, useLocation } from "../../router.js"
import { MembersPanel } from "./MembersPanel.js"
import { WorkspaceRow } from "./WorkspaceRow.js"
import "../people/people.css"
import "./workspaces.css"

const CreateWorkspace = (props: { readonly onDone: (message: string) => void }) => {
  const [name, setName] = useState("")
  const [failure, setFailure] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setFailure(undefined)
    try {
      const created = await createWorkspace(name.trim())
      setName("")
      props.onDone(`${created.name} was created.`)
    } catch (error) {
      setFailure(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="workspace-create" onSubmit={(e) => void submit(e)}>
      <label htmlFor="new-workspace">New workspace</label>
      <div className="workspace-create-row">
        <input id="new-workspace" value={name} required onChange={(e) => setName(e.target.value)} />
        <button type="submit" className="primary" disabled={busy || name.trim() === ""}>{busy ? "Creating…" : "Create"}</button>
      </div>
      {failure === undefined ? null : <p role="alert" className="error">{failure}</p>}
    </form>
  )
}

const Workspaces = (props: { readonly owner: boolean }) => {
  const { search } = useLocation()
  const workspaces = useQuery(fresh(myWorkspaces))
  const datasets = useQuery(fresh(myDatasets))
  const members = useQuery({ ...memberships(workspaces.data ?? []), enabled: workspaces.data !== undefined })
  const everyone = useQuery({ ...fresh(usersQuery), enabled: props.owner })
  const [notice, setNotice] = useState("")
  const counts = datasetCounts(datasets.data ?? [])
  const membersOf = new Map((members.data ?? []).map((m) => [m.workspace.id as string, m.members]))
  const sorted = (workspaces.data ?? []).toSorted((a, b) => a.name.localeCompare(b.name))
  const open = sorted.find((w) => w.id === search.get("members"))
  return (
    <>
      {props.owner ? <CreateWorkspace onDone={setNotice} /> : null}
      <p role="status" className="muted">{notice}</p>
      {workspaces.isError ? <p role="alert">{errorMessage(workspaces.error)}</p> : null}
      {members.isError ? <p role="alert">{errorMessage(members.error)}</p> : null}
      {workspaces.data === undefined ? <p>Loading workspaces…</p>
        : sorted.length === 0 ? <p className="muted">No workspaces yet{props.owner ? ": create the first one above." : "."}</p>
        : (
          <table className="datasets workspaces-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Members</th>
                <th scope="col">Datasets</th>
                <th scope="col"><span className="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {sorted.map((w) => (
                <WorkspaceRow key={w.id} workspace={w} owner={props.owner} members={membersOf.get(w.id)?.length}
                  datasets={datasets.data === undefined ? 0 : counts.get(w.id) ?? 0}
                  showMembers={() => setSearch({ members: w.id })} onDone={setNotice} />
              ))}
            </tbody>
          </table>
        )}
      {open === undefined ? null : (
        <MembersPanel key={open.id} workspace={open} members={membersOf.get(open.id)}
          everyone={props.owner ? everyone.data : undefined} onClose={() => setSearch({ members: undefined })} />
      )}
    </>
  )
}

export const WorkspacesPage = () => {
  const me = useQuery(meQuery).data
  return (
    <main id="main" className="page workspaces-page">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/">Datasets</Link>
      </nav>
      <h1>Workspaces</h1>
      {me === undefined ? <p>Loading…</p>
        : canInvite(me.role) ? <Workspaces owner={isOwner(me.role)} />
        : <p role="alert">Only owners and admins manage workspaces.</p>}
    </main>
  )
}

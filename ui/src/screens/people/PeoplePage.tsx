/**
 * `/users`, People: for owners, every user (create, change role, reset password, delete), invitations and the
 * pending ones; for admins, invitations of annotators into their workspaces (owners alone manage accounts).
 */
import { useQuery } from "@tanstack/react-query"
import { useState } from "react"
import type { User } from "../../../../src/domain/User.js"
import { canInvite, fresh, isOwner, memberships, users as usersQuery } from "../../data/accounts.js"
import { errorMessage } from "../../data/client.js"
import { me as meQuery, myWorkspaces } from "../../data/queries.js"
import { workspacesByUser } from "../../data/roster.js"
import { Link } from "../../router.js"
import { CreateUser } from "./CreateUser.js"
import { Invitations } from "./Invitations.js"
import { InviteDialog } from "./InviteDialog.js"
import { ManageUser } from "./ManageUser.js"
import { UserTable } from "./UserTable.js"
import "./people.css"

const OwnerView = (props: { readonly self: User }) => {
  const list = useQuery(fresh(usersQuery))
  const workspaces = useQuery(fresh(myWorkspaces)).data
  const members = useQuery({ ...memberships(workspaces ?? []), enabled: workspaces !== undefined })
  const [managed, setManaged] = useState<User | undefined>(undefined)
  const [notice, setNotice] = useState("")
  const byUser = members.data === undefined ? undefined : workspacesByUser(members.data)
  return (
    <>
      <div className="people-actions">
        <CreateUser workspaces={workspaces ?? []} onCreated={(name) => setNotice(`${name} was created.`)} />
        <InviteDialog workspaces={workspaces ?? []} roles={["annotator", "admin"]} />
        <p role="status" className="muted">{notice}</p>
      </div>
      {list.isError ? <p role="alert">{errorMessage(list.error)}</p> : null}
      {members.isError ? <p role="alert">{errorMessage(members.error)}</p> : null}
      {list.data === undefined ? <p>Loading users…</p>
        : <UserTable users={list.data} workspacesOf={byUser} onManage={setManaged} />}
      <ManageUser user={managed} self={managed?.id === props.self.id} onClose={() => setManaged(undefined)} onDone={setNotice} />
      <Invitations />
    </>
  )
}

const AdminView = () => {
  const workspaces = useQuery(fresh(myWorkspaces)).data
  return (
    <>
      <p>
        Owners create, change and delete accounts. As an admin you invite annotators into your workspaces, and you see
        and remove their members on the <Link to="/workspaces">Workspaces</Link> page.
      </p>
      <div className="people-actions">
        <InviteDialog workspaces={workspaces ?? []} roles={["annotator"]} />
      </div>
      <Invitations />
    </>
  )
}

export const PeoplePage = () => {
  const me = useQuery(meQuery).data
  return (
    <main id="main" className="page people-page">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/">Datasets</Link>
      </nav>
      <h1>People</h1>
      {me === undefined ? <p>Loading…</p>
        : isOwner(me.role) ? <OwnerView self={me} />
        : canInvite(me.role) ? <AdminView />
        : <p role="alert">Only owners and admins manage people.</p>}
    </main>
  )
}

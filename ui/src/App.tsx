/**
 * The shell: the header, the routes, and the sign-in guard. Without a session every route but `/sign-in` (and the
 * first owner's `/setup` and an invitation's `/invite`) goes there with `?redirect=` to come back; a 401 from any call
 * does the same (see `session.expire`).
 */
import { QueryClientProvider, useQuery } from "@tanstack/react-query"
import { lazy, Suspense, useEffect, useSyncExternalStore } from "react"
import { datasetIdFrom, me, queryClient } from "./data/queries.js"
import { session } from "./data/session.js"
import { Link, match, navigate, useLocation } from "./router.js"
import { OAuthCallback } from "./screens/OAuthCallback.js"
import { SignIn } from "./screens/SignIn.js"

// Screens after sign-in load on demand, so the first screen ships only what it needs.
const Home = lazy(() => import("./screens/Home.js").then((m) => ({ default: m.Home })))
const UserSettings = lazy(() => import("./screens/UserSettings.js").then((m) => ({ default: m.UserSettings })))
const TeamPage = lazy(() => import("./screens/team/TeamPage.js").then((m) => ({ default: m.TeamPage })))
const AgreementPage = lazy(() =>
  import("./screens/agreement/AgreementPage.js").then((m) => ({ default: m.AgreementPage }))
)
const AssignmentPage = lazy(() =>
  import("./screens/assignment/AssignmentPage.js").then((m) => ({ default: m.AssignmentPage }))
)
const PeoplePage = lazy(() => import("./screens/people/PeoplePage.js").then((m) => ({ default: m.PeoplePage })))
const WorkspacesPage = lazy(() =>
  import("./screens/workspaces/WorkspacesPage.js").then((m) => ({ default: m.WorkspacesPage }))
)
// Pages shown without a session: the first owner's set-up and an invitation.
const SetupPage = lazy(() => import("./screens/setup/SetupPage.js").then((m) => ({ default: m.SetupPage })))
const InvitePage = lazy(() => import("./screens/invite/InvitePage.js").then((m) => ({ default: m.InvitePage })))
const WebhooksPage = lazy(() => import("./screens/webhooks/WebhooksPage.js").then((m) => ({ default: m.WebhooksPage })))
const DatasetSettings = lazy(() =>
  import("./screens/settings/DatasetSettings.js").then((m) => ({ default: m.DatasetSettings }))
)
const NewDataset = lazy(() => import("./screens/newDataset/NewDataset.js").then((m) => ({ default: m.NewDataset })))
const ImportRecords = lazy(() => import("./screens/import/ImportRecords.js").then((m) => ({ default: m.ImportRecords })))
const AnnotationView = lazy(() =>
  import("./screens/annotation/AnnotationView.js").then((m) => ({ default: m.AnnotationView }))
)

const Header = () => {
  const user = useQuery(me).data
  return (
    <header className="app-header">
      <a className="skip" href="#main">Skip to content</a>
      <Link to="/" className="brand">Gloss</Link>
      <nav aria-label="Account" className="account">
        {user === undefined ? null : <span className="muted">{user.username}</span>}
        {user?.role === "owner" || user?.role === "admin" ? <Link to="/users">People</Link> : null}
        {user?.role === "owner" || user?.role === "admin" ? <Link to="/workspaces">Workspaces</Link> : null}
        {user?.role === "owner" ? <Link to="/webhooks">Webhooks</Link> : null}
        <Link to="/user-settings">My settings</Link>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            session.signOut()
            queryClient.clear()
            navigate("/sign-in", { replace: true })
          }}
        >
          Sign out
        </button>
      </nav>
    </header>
  )
}

const NotFound = () => (
  <main id="main" className="page">
    <h1>Page not found</h1>
    <Link to="/">Back to datasets</Link>
  </main>
)

const Routes = (props: { readonly path: string }) => {
  const { path } = props
  if (path === "/") return <Home />
  if (path === "/user-settings") return <UserSettings />
  if (path === "/webhooks") return <WebhooksPage />
  if (path === "/users") return <PeoplePage />
  if (path === "/workspaces") return <WorkspacesPage />
  const team = match("/dataset/:id/team", path)
  if (team !== undefined) {
    const id = datasetIdFrom(team["id"])
    return id === undefined ? <NotFound /> : <TeamPage key={id} datasetId={id} />
  }
  const agreement = match("/dataset/:id/agreement", path)
  if (agreement !== undefined) {
    const id = datasetIdFrom(agreement["id"])
    return id === undefined ? <NotFound /> : <AgreementPage key={id} datasetId={id} />
  }
  const assignments = match("/dataset/:id/assignments", path)
  if (assignments !== undefined) {
    const id = datasetIdFrom(assignments["id"])
    return id === undefined ? <NotFound /> : <AssignmentPage key={id} datasetId={id} />
  }
  if (path === "/new-dataset") return <NewDataset />
  const settings = match("/dataset/:id/settings", path)
  if (settings !== undefined) {
    const id = datasetIdFrom(settings["id"])
    return id === undefined ? <NotFound /> : <DatasetSettings key={id} datasetId={id} />
  }
  const importing = match("/dataset/:id/import", path)
  if (importing !== undefined) {
    const id = datasetIdFrom(importing["id"])
    return id === undefined ? <NotFound /> : <ImportRecords key={id} datasetId={id} />
  }
  const annotate = match("/dataset/:id/annotation-mode", path) ?? match("/dataset/:id", path)
  if (annotate !== undefined) {
    const id = datasetIdFrom(annotate["id"])
    return id === undefined ? <NotFound /> : <AnnotationView key={id} datasetId={id} />
  }
  return <NotFound />
}

export const App = () => {
  const location = useLocation()
  const { token } = useSyncExternalStore(session.subscribe, session.get)
  const onSignIn = location.path === "/sign-in"
  const oauthCallback = match("/oauth/:provider/callback", location.path)
  const onCallback = oauthCallback !== undefined
  const onPublic = location.path === "/setup" || location.path === "/invite"

  useEffect(() => {
    if (token === null && !onSignIn && !onCallback && !onPublic) {
      queryClient.clear()
      navigate(`/sign-in?redirect=${encodeURIComponent(location.href)}`, { replace: true })
    }
  }, [token, onSignIn, onCallback, onPublic, location.href])

  let page
  if (onSignIn) page = <SignIn />
  else if (oauthCallback !== undefined) page = <OAuthCallback provider={oauthCallback["provider"] ?? ""} />
  else if (onPublic) {
    page = (
      <Suspense fallback={<main id="main" className="sign-in"><p>Loading…</p></main>}>
        {location.path === "/setup" ? <SetupPage /> : <InvitePage />}
      </Suspense>
    )
  }
  else if (token === null) page = null
  else {
    page = (
      <>
        <Header />
        <Suspense fallback={<main id="main" className="page"><p>Loading…</p></main>}>
          <Routes path={location.path} />
        </Suspense>
      </>
    )
  }
  return <QueryClientProvider client={queryClient}>{page}</QueryClientProvider>
}

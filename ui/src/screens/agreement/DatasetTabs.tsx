/**
 * The dataset's team pages, side by side: each annotator's progress (owners, admins), their agreement, and who is
 * assigned what (owners, admins).
 */
import type { DatasetId } from "../../../../src/domain/Ids.js"
import { Link } from "../../router.js"
import "./agreement.css"

export const DatasetTabs = (props: {
  readonly datasetId: DatasetId
  readonly current: "team" | "agreement" | "assignments"
  /** Team progress and assignments are for owners and admins; reviewers see agreement only. */
  readonly team: boolean
}) => {
  const tabs = [
    ...(props.team ? [{ id: "team" as const, label: "Progress by annotator" }] : []),
    { id: "agreement" as const, label: "Agreement" },
    ...(props.team ? [{ id: "assignments" as const, label: "Assignments" }] : [])
  ]
  return (
    <nav aria-label="Team pages" className="dataset-tabs">
      <ul>
        {tabs.map((tab) => (
          <li key={tab.id}>
            {tab.id === props.current
              ? <span aria-current="page" className="dataset-tab current">{tab.label}</span>
              : <Link to={`/dataset/${props.datasetId}/${tab.id}`} className="dataset-tab">{tab.label}</Link>}
          </li>
        ))}
      </ul>
    </nav>
  )
}

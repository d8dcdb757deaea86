/** A group of checkboxes, one per workspace: which workspaces a new user or an invitation gets. */
import type { WorkspaceId } from "../../../../src/domain/Ids.js"
import type { Workspace } from "../../../../src/domain/Workspace.js"

export const WorkspaceChecks = (props: {
  readonly legend: string
  readonly workspaces: ReadonlyArray<Workspace>
  readonly chosen: ReadonlySet<WorkspaceId>
  readonly onChange: (chosen: ReadonlySet<WorkspaceId>) => void
  readonly idPrefix: string
}) => (
  <fieldset className="workspace-checks">
    <legend>{props.legend}</legend>
    {props.workspaces.length === 0 ? <p className="muted">No workspace yet: create one on the Workspaces page.</p> : null}
    {props.workspaces.map((w) => (
      <label key={w.id} htmlFor={`${props.idPrefix}-${w.id}`}>
        <input id={`${props.idPrefix}-${w.id}`} type="checkbox" checked={props.chosen.has(w.id)}
          onChange={(e) => {
            const next = new Set(props.chosen)
            if (e.target.checked) next.add(w.id)
            else next.delete(w.id)
            props.onChange(next)
          }} />
        {w.name}
      </label>
    ))}
  </fieldset>
)

import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { columnTypes } from "../ddl.js"

/**
 * Invitation links (services/invitations/): the SHA-256 digest of each link's token (the token itself is answered
 * once and never kept), the role and workspaces it gives, who made it, until when it works, and whether it was used
 * or revoked. An invitation goes with its inviter; a workspace deleted meanwhile just drops out of it.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const t = columnTypes(sql)
  yield* sql.unsafe(`
    create table invitations (
      id ${t.uuid} primary key,
      token_digest text not null unique,
      role text not null check (role in ('admin', 'annotator')),
      created_by ${t.uuid} not null references users (id) on delete cascade,
      inserted_at ${t.timestamp} not null,
      expires_at ${t.timestamp} not null,
      used_at ${t.timestamp},
      used_by ${t.uuid} references users (id) on delete set null,
      revoked_at ${t.timestamp}
    )`)
  yield* sql.unsafe(`
    create table invitations_workspaces (
      invitation_id ${t.uuid} not null references invitations (id) on delete cascade,
      workspace_id ${t.uuid} not null references workspaces (id) on delete cascade,
      primary key (invitation_id, workspace_id)
    )`)
  yield* sql.unsafe(`create index invitations_workspaces_workspace_id on invitations_workspaces (workspace_id)`)
  yield* sql.unsafe(`create index invitations_created_by on invitations (created_by)`)
})

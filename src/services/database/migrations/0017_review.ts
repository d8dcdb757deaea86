import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { columnTypes } from "../ddl.js"

/**
 * Review (`/api/gloss`, src/services/review/): the final answer a reviewer settles each question of a record on,
 * and the members of a workspace given review rights there.
 *
 * `final_answers` is apart from `responses`: a final answer is nobody's response, and Argilla's endpoints and SDK
 * never see it. One per record and question; it goes with its record or its question. `dataset_id` is the record's,
 * kept here so that a dataset's final answers are read without a join. `settled_by` names who settled it and is kept
 * when that user is deleted (it is a record of what happened, not a link); `source_user_id`, the annotator whose
 * answer was taken, is cleared with them.
 *
 * `workspace_reviewers` refers to the membership itself, so that removing a user from a workspace (or deleting the
 * user or the workspace) takes their review rights there with it: rights never outlive the membership they need.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const t = columnTypes(sql)
  yield* sql.unsafe(`
    create table final_answers (
      record_id ${t.uuid} not null references records (id) on delete cascade,
      question_id ${t.uuid} not null references questions (id) on delete cascade,
      dataset_id ${t.uuid} not null references datasets (id) on delete cascade,
      value ${t.json} not null,
      source text not null check (source in ('response', 'suggestion', 'reviewer', 'agreement')),
      source_user_id ${t.uuid} references users (id) on delete set null,
      note text,
      settled_by ${t.uuid} not null,
      inserted_at ${t.timestamp} not null,
      updated_at ${t.timestamp} not null,
      primary key (record_id, question_id)
    )`)
  yield* sql.unsafe(`create index final_answers_dataset on final_answers (dataset_id)`)
  yield* sql.unsafe(`create index final_answers_question on final_answers (question_id)`)
  yield* sql.unsafe(`
    create table workspace_reviewers (
      workspace_id ${t.uuid} not null,
      user_id ${t.uuid} not null,
      inserted_at ${t.timestamp} not null,
      primary key (workspace_id, user_id),
      foreign key (workspace_id, user_id) references workspaces_users (workspace_id, user_id) on delete cascade
    )`)
  yield* sql.unsafe(`create index workspace_reviewers_user on workspace_reviewers (user_id)`)
})

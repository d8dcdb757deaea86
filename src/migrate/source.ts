/**
 * Where a migration reads an Argilla deployment from: its database (`fromDatabase.ts`, everything) or its REST API
 * (`fromApi.ts`, everything but password hashes). The small kinds are read whole; records come a page at a time,
 * each page with everything that hangs off its records, so memory follows the page size, not the dataset.
 */
import type { Effect, Stream } from "effect"
import type { MigrationError } from "./errors.js"
import type {
  DatasetRow,
  DatasetSettings,
  DatasetUserRow,
  MembershipRow,
  RecordChild,
  RecordPage,
  UserRow,
  WebhookRow,
  WorkspaceRow
} from "./model.js"

export interface ArgillaSource {
  /** What was opened, for the report: "Argilla's database (SQLite …, schema revision …)". */
  readonly description: string
  /** Whether users come with their password hashes (not over the REST API). */
  readonly readsPasswords: boolean
  /** Whether `recordPages` can be limited to what changed since a time (the database can; the API reads all). */
  readonly readsChangesOnly: boolean
  /** Anything the source holds that Gloss cannot, found while opening (e.g. a table of a newer Argilla). */
  readonly warnings: ReadonlyArray<string>
  readonly users: Effect.Effect<ReadonlyArray<UserRow>, MigrationError>
  readonly workspaces: Effect.Effect<ReadonlyArray<WorkspaceRow>, MigrationError>
  readonly memberships: Effect.Effect<ReadonlyArray<MembershipRow>, MigrationError>
  readonly datasets: Effect.Effect<ReadonlyArray<DatasetRow>, MigrationError>
  readonly settings: (datasetId: string) => Effect.Effect<DatasetSettings, MigrationError>
  readonly datasetUsers: (datasetId: string) => Effect.Effect<ReadonlyArray<DatasetUserRow>, MigrationError>
  readonly webhooks: Effect.Effect<ReadonlyArray<WebhookRow>, MigrationError>
  /**
   * A dataset's records in insertion order, `pageSize` at a time, each with all its responses, suggestions and
   * vectors. With `since`, only records that changed then or later, or whose responses, suggestions or vectors did.
   */
  readonly recordPages: (
    datasetId: string,
    options: { readonly since: Date | undefined; readonly pageSize: number }
  ) => Stream.Stream<RecordPage, MigrationError>
  /** How many records a dataset has (for the progress bar). */
  readonly recordCount: (datasetId: string) => Effect.Effect<number, MigrationError>
  /** The ids of every record (or response, suggestion, vector) of a dataset: what a re-sync deletes is what is gone. */
  readonly ids: (datasetId: string, kind: "records" | RecordChild) => Effect.Effect<ReadonlySet<string>, MigrationError>
  readonly close: Effect.Effect<void>
}

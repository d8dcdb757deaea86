/**
 * The dataset settings screens' data: what they read besides `queries.ts`, their writes (the contract's PATCH, POST,
 * PUT and DELETE), who may write, and the problems a failed write reports, by input.
 */
import { queryOptions } from "@tanstack/react-query"
import { Effect, ParseResult } from "effect"
import type { DatasetUpdate } from "../../../src/domain/Dataset.js"
import type { FieldUpdate } from "../../../src/domain/Field.js"
import type { DatasetId, FieldId, MetadataPropertyId, QuestionId, VectorSettingsId } from "../../../src/domain/Ids.js"
import type { MetadataPropertyUpdate } from "../../../src/domain/MetadataProperty.js"
import type { QuestionUpdate } from "../../../src/domain/Question.js"
import type { RecordUpsert } from "../../../src/domain/Record.js"
import type { Role } from "../../../src/domain/User.js"
import type { VectorSettingsUpdate } from "../../../src/domain/VectorSettings.js"
import { call, errorMessage } from "./client.js"
import { queryClient } from "./queries.js"

/** Owners and admins change settings, create datasets and import records (the server checks it again). */
export const canManage = (role: Role | undefined) => role === "owner" || role === "admin"

/** Every metadata property of a dataset, visible to annotators or not (`queries.ts` has the caller's view). */
export const allMetadataProperties = (id: DatasetId) =>
  queryOptions({
    queryKey: ["dataset", id, "metadata-properties", "all"],
    queryFn: ({ signal }) => call((c) => Effect.map(c.metadataProperties.list({ path: { id } }), (r) => r.items), signal)
  })

export const vectorSettings = (id: DatasetId) =>
  queryOptions({
    queryKey: ["dataset", id, "vectors-settings"],
    queryFn: ({ signal }) => call((c) => Effect.map(c.vectorSettings.list({ path: { id } }), (r) => r.items), signal)
  })

/** One problem of a failed write: `path` names the input it is about (`title`, `settings.options`), or is "". */
export interface Problem {
  readonly path: string
  readonly message: string
}

const hasTag = (error: unknown, tag: string): error is Record<string, unknown> =>
  typeof error === "object" && error !== null && "_tag" in error && error._tag === tag

const pathOf = (loc: ReadonlyArray<unknown>) =>
  loc.filter((part) => part !== "body" && part !== "payload").map(String).join(".")

/**
 * The problems a failed write reports: the server's validation errors (422 with `loc`), its one-line refusals
 * (422/409 `detail`, said about the whole form), and the client's own checks of the payload against the contract.
 */
export const problemsOf = (error: unknown): Array<Problem> => {
  if (hasTag(error, "ValidationError") && Array.isArray(error["errors"])) {
    const errors: ReadonlyArray<unknown> = error["errors"]
    return errors.flatMap((e) =>
      typeof e === "object" && e !== null && "loc" in e && "msg" in e && Array.isArray(e.loc) && typeof e.msg === "string"
        ? [{ path: pathOf(e.loc), message: e.msg }]
        : []
    )
  }
  if (error instanceof ParseResult.ParseError) {
    return ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({ path: pathOf(issue.path), message: issue.message }))
  }
  return [{ path: "", message: errorMessage(error) }]
}

/** The messages about `path` (or anything under it). */
export const problemsAt = (problems: ReadonlyArray<Problem>, path: string) =>
  problems.filter((p) => p.path === path || p.path.startsWith(`${path}.`)).map((p) => p.message)

/** The messages about no input in `paths`: shown with the form. */
export const otherProblems = (problems: ReadonlyArray<Problem>, paths: ReadonlyArray<string>) =>
  problems.filter((p) => !paths.some((path) => p.path === path || p.path.startsWith(`${path}.`))).map((p) => p.message)

const refresh = (id: DatasetId) => queryClient.invalidateQueries({ queryKey: ["dataset", id] })

export const updateDataset = async (id: DatasetId, payload: DatasetUpdate) => {
  const updated = await call((c) => c.datasets.update({ path: { id }, payload }))
  queryClient.setQueryData(["dataset", id], updated)
  await queryClient.invalidateQueries({ queryKey: ["me", "datasets"] })
  return updated
}

export const updateField = async (datasetId: DatasetId, id: FieldId, payload: FieldUpdate) => {
  const updated = await call((c) => c.fields.update({ path: { id }, payload }))
  await refresh(datasetId)
  return updated
}

export const updateQuestion = async (datasetId: DatasetId, id: QuestionId, payload: QuestionUpdate) => {
  const updated = await call((c) => c.questions.update({ path: { id }, payload }))
  await refresh(datasetId)
  return updated
}

export const updateMetadataProperty = async (datasetId: DatasetId, id: MetadataPropertyId, payload: MetadataPropertyUpdate) => {
  const updated = await call((c) => c.metadataProperties.update({ path: { id }, payload }))
  await refresh(datasetId)
  return updated
}

export const updateVectorSettings = async (datasetId: DatasetId, id: VectorSettingsId, payload: VectorSettingsUpdate) => {
  const updated = await call((c) => c.vectorSettings.update({ path: { id }, payload }))
  await refresh(datasetId)
  return updated
}

export const publishDataset = async (id: DatasetId) => {
  const published = await call((c) => c.datasets.publish({ path: { id } }))
  queryClient.setQueryData(["dataset", id], published)
  await queryClient.invalidateQueries({ queryKey: ["me", "datasets"] })
  return published
}

export const deleteDataset = async (id: DatasetId) => {
  const deleted = await call((c) => c.datasets.delete({ path: { id } }))
  queryClient.removeQueries({ queryKey: ["dataset", id] })
  await queryClient.invalidateQueries({ queryKey: ["me", "datasets"] })
  return deleted
}

/** One batch of imported records (≤ 500), upserted: a record with an `external_id` already there is updated. */
export const importBatch = (id: DatasetId, items: ReadonlyArray<RecordUpsert>, signal?: AbortSignal) =>
  call((c) => c.records.bulkUpsert({ path: { id }, payload: { items } }), signal)

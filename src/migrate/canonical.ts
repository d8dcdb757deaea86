/**
 * Each kind's rows in one comparable form, however they were read: from Argilla (the model's rows, as the migration
 * writes them) or back from Gloss's tables. The verifier digests these forms on both sides; the planner compares
 * them to tell "updated" from "unchanged". Timestamps are compared to the millisecond (what Gloss keeps), JSON with
 * its keys sorted (PostgreSQL's jsonb reorders them), API keys by their digest (Gloss keeps no clear key).
 */
import * as crypto from "node:crypto"
import { DbVector, timestampOf } from "../codecs/columns.js"
import { apiKeyDigest } from "../services/secrets/apiKeys.js"
import { Schema } from "effect"
import type * as M from "./model.js"

export type Canonical = Readonly<Record<string, unknown>>

/** JSON with sorted keys: equal values, equal text. */
export const stableJson = (value: unknown): string => {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null)
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`
}

const ms = (value: unknown): number => {
  if (value instanceof Date) return value.getTime()
  const date = timestampOf(String(value))
  return date === undefined ? Number.NaN : date.getTime()
}
const json = (value: unknown): unknown => (typeof value === "string" ? JSON.parse(value) : value ?? null)
const bool = (value: unknown): boolean => value === true || value === 1 || value === "1"
const stamps = (row: { id: unknown; inserted_at: unknown; updated_at: unknown }) => ({
  id: String(row.id),
  inserted_at: ms(row.inserted_at),
  updated_at: ms(row.updated_at)
})
const decodeVector = Schema.decodeUnknownSync(DbVector)

type DbRow = Readonly<Record<string, unknown>>

/** From Argilla's side (the model's rows, with the migration's renames applied). */
export const fromSource = {
  users: (row: M.UserRow, withPassword: boolean): Canonical => ({
    ...stamps(row),
    username: row.username,
    first_name: row.first_name,
    last_name: row.last_name,
    role: row.role,
    password_hash: withPassword ? row.password_hash : null,
    api_key_digest: apiKeyDigest(row.api_key)
  }),
  workspaces: (row: M.WorkspaceRow): Canonical => ({ ...stamps(row), name: row.name }),
  memberships: (row: M.MembershipRow): Canonical => ({ ...stamps(row), workspace_id: row.workspace_id, user_id: row.user_id }),
  datasets: (row: M.DatasetRow): Canonical => ({
    ...stamps(row),
    name: row.name,
    guidelines: row.guidelines,
    allow_extra_metadata: row.allow_extra_metadata,
    status: row.status,
    distribution: stableJson(row.distribution),
    metadata: stableJson(row.metadata),
    workspace_id: row.workspace_id,
    last_activity_at: ms(row.last_activity_at)
  }),
  fields: (row: M.FieldRow): Canonical => ({
    ...stamps(row), dataset_id: row.dataset_id, name: row.name, title: row.title, required: row.required, settings: stableJson(row.settings)
  }),
  questions: (row: M.QuestionRow): Canonical => ({
    ...fromSource.fields(row), description: row.description
  }),
  metadataProperties: (row: M.MetadataPropertyRow): Canonical => ({
    ...stamps(row),
    dataset_id: row.dataset_id,
    name: row.name,
    title: row.title,
    settings: stableJson(row.settings),
    visible_for_annotators: row.allowed_roles.includes("annotator")
  }),
  vectorSettings: (row: M.VectorSettingsRow): Canonical => ({
    ...stamps(row), dataset_id: row.dataset_id, name: row.name, title: row.title, dimensions: row.dimensions
  }),
  records: (row: M.RecordRow): Canonical => ({
    ...stamps(row),
    dataset_id: row.dataset_id,
    external_id: row.external_id,
    fields: stableJson(row.fields),
    metadata: stableJson(row.metadata),
    status: row.status
  }),
  responses: (row: M.ResponseRow): Canonical => ({
    ...stamps(row), record_id: row.record_id, user_id: row.user_id, values: stableJson(row.values), status: row.status
  }),
  suggestions: (row: M.SuggestionRow): Canonical => ({
    ...stamps(row),
    record_id: row.record_id,
    question_id: row.question_id,
    value: stableJson(row.value),
    score: stableJson(row.score),
    agent: row.agent,
    type: row.type
  }),
  vectors: (row: M.VectorRow): Canonical => ({
    ...stamps(row), record_id: row.record_id, vector_settings_id: row.vector_settings_id, value: stableJson(row.value)
  }),
  datasetUsers: (row: M.DatasetUserRow): Canonical => ({ ...stamps(row), dataset_id: row.dataset_id, user_id: row.user_id }),
  webhooks: (row: M.WebhookRow): Canonical => ({
    ...stamps(row),
    url: row.url,
    secret: row.secret,
    events: stableJson(row.events),
    enabled: row.enabled,
    description: row.description
  })
}

/** From Gloss's tables, `select *` rows as either database returns them. */
export const fromTarget = {
  users: (row: DbRow, withPassword: boolean): Canonical => ({
    ...stamps(row as never),
    username: row["username"],
    first_name: row["first_name"],
    last_name: row["last_name"] ?? null,
    role: row["role"],
    password_hash: withPassword ? row["password_hash"] : null,
    api_key_digest: row["api_key_digest"]
  }),
  workspaces: (row: DbRow): Canonical => ({ ...stamps(row as never), name: row["name"] }),
  memberships: (row: DbRow): Canonical => ({
    ...stamps(row as never), workspace_id: String(row["workspace_id"]), user_id: String(row["user_id"])
  }),
  datasets: (row: DbRow): Canonical => ({
    ...stamps(row as never),
    name: row["name"],
    guidelines: row["guidelines"] ?? null,
    allow_extra_metadata: bool(row["allow_extra_metadata"]),
    status: row["status"],
    distribution: stableJson(json(row["distribution"])),
    metadata: stableJson(json(row["metadata"])),
    workspace_id: String(row["workspace_id"]),
    last_activity_at: ms(row["last_activity_at"])
  }),
  fields: (row: DbRow): Canonical => ({
    ...stamps(row as never),
    dataset_id: String(row["dataset_id"]),
    name: row["name"],
    title: row["title"],
    required: bool(row["required"]),
    settings: stableJson(json(row["settings"]))
  }),
  questions: (row: DbRow): Canonical => ({ ...fromTarget.fields(row), description: row["description"] ?? null }),
  metadataProperties: (row: DbRow): Canonical => ({
    ...stamps(row as never),
    dataset_id: String(row["dataset_id"]),
    name: row["name"],
    title: row["title"],
    settings: stableJson(json(row["settings"])),
    visible_for_annotators: bool(row["visible_for_annotators"])
  }),
  vectorSettings: (row: DbRow): Canonical => ({
    ...stamps(row as never),
    dataset_id: String(row["dataset_id"]),
    name: row["name"],
    title: row["title"],
    dimensions: Number(row["dimensions"])
  }),
  records: (row: DbRow): Canonical => ({
    ...stamps(row as never),
    dataset_id: String(row["dataset_id"]),
    external_id: row["external_id"] ?? null,
    fields: stableJson(json(row["fields"])),
    metadata: stableJson(json(row["metadata"])),
    status: row["status"]
  }),
  responses: (row: DbRow): Canonical => ({
    ...stamps(row as never),
    record_id: String(row["record_id"]),
    user_id: String(row["user_id"]),
    values: stableJson(json(row["values"])),
    status: row["status"]
  }),
  suggestions: (row: DbRow): Canonical => ({
    ...stamps(row as never),
    record_id: String(row["record_id"]),
    question_id: String(row["question_id"]),
    value: stableJson(json(row["value"])),
    score: stableJson(json(row["score"])),
    agent: row["agent"] ?? null,
    type: row["type"] ?? null
  }),
  vectors: (row: DbRow): Canonical => ({
    ...stamps(row as never),
    record_id: String(row["record_id"]),
    vector_settings_id: String(row["vector_settings_id"]),
    value: stableJson(decodeVector(row["value"]))
  }),
  datasetUsers: (row: DbRow): Canonical => ({
    id: `${String(row["dataset_id"])}:${String(row["user_id"])}`,
    inserted_at: ms(row["inserted_at"]),
    updated_at: ms(row["updated_at"]),
    dataset_id: String(row["dataset_id"]),
    user_id: String(row["user_id"])
  }),
  webhooks: (row: DbRow): Canonical => ({
    ...stamps(row as never),
    url: row["url"],
    secret: row["secret"],
    events: stableJson(json(row["events"])),
    enabled: bool(row["enabled"]),
    description: row["description"] ?? null
  })
}

/**
 * A row's fingerprint (of its comparable form). Both sides build a kind's form with its keys in the same order (the
 * functions above), and its JSON values are stable text already, so plain `JSON.stringify` is enough here.
 */
export const fingerprint = (canonical: Canonical): Buffer =>
  crypto.createHash("sha256").update(JSON.stringify(canonical)).digest()

/**
 * An order-free digest of a set of rows: the XOR of their fingerprints and their count. Rows arrive in pages, in
 * whatever order each database returns them, so nothing has to be sorted or held.
 */
export class Digest {
  count = 0
  private readonly sum = Buffer.alloc(32)
  add(canonical: Canonical): void {
    const print = fingerprint(canonical)
    for (let i = 0; i < 32; i++) this.sum[i]! ^= print[i]!
    this.count++
  }
  /** Adds another digest's rows (digests of disjoint sets combine). */
  merge(other: Digest): void {
    for (let i = 0; i < 32; i++) this.sum[i]! ^= other.sum[i]!
    this.count += other.count
  }
  get hex(): string {
    return this.sum.toString("hex").slice(0, 16)
  }
  equals(other: Digest): boolean {
    return this.count === other.count && this.sum.equals(other.sum)
  }
}

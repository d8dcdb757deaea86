/** The Schemathesis run's configuration file (schemathesis.toml, Schemathesis 4): the seeded ids as path parameters. */
import type { FuzzSeed } from "./seed.js"

/** Which seeded id each path's parameters take; a method narrows an entry (deletes get victims of their own). */
const operations = (seed: FuzzSeed): ReadonlyArray<{
  readonly paths: ReadonlyArray<string>
  readonly method?: string
  readonly parameters: Readonly<Record<string, string>>
}> => [
  { paths: ["/api/v1/workspaces/{id}"], method: "DELETE", parameters: { id: seed.workspaceToDelete } },
  { paths: ["/api/v1/workspaces/{id}"], method: "GET", parameters: { id: seed.workspace } },
  {
    paths: ["/api/v1/workspaces/{id}/users", "/api/v1/workspaces/{id}/users/{user_id}"],
    parameters: { id: seed.workspace, user_id: seed.user }
  },
  { paths: ["/api/v1/users/{id}"], method: "DELETE", parameters: { id: seed.userToDelete } },
  { paths: ["/api/v1/users/{id}"], method: "GET", parameters: { id: seed.user } },
  { paths: ["/api/v1/users/{id}"], method: "PATCH", parameters: { id: seed.user } },
  { paths: ["/api/v1/users/{id}/workspaces"], parameters: { id: seed.user } },
  { paths: ["/api/v1/datasets/{id}"], method: "DELETE", parameters: { id: seed.datasetToDelete } },
  { paths: ["/api/v1/datasets/{id}"], method: "GET", parameters: { id: seed.dataset } },
  { paths: ["/api/v1/datasets/{id}"], method: "PATCH", parameters: { id: seed.dataset } },
  { paths: ["/api/v1/datasets/{id}/publish"], parameters: { id: seed.datasetToPublish } },
  { paths: ["/api/v1/datasets/{id}/fields", "/api/v1/datasets/{id}/questions"], parameters: { id: seed.draftDataset } },
  {
    paths: [
      "/api/v1/datasets/{id}/metadata-properties",
      "/api/v1/datasets/{id}/vectors-settings",
      "/api/v1/datasets/{id}/records",
      "/api/v1/datasets/{id}/records/bulk",
      "/api/v1/datasets/{id}/records/search",
      "/api/v1/datasets/{id}/records/search/suggestions/options",
      "/api/v1/datasets/{id}/progress",
      "/api/v1/datasets/{id}/users/progress",
      "/api/v1/me/datasets/{id}/metadata-properties",
      "/api/v1/me/datasets/{id}/metrics",
      "/api/v1/me/datasets/{id}/records/search",
      "/api/v1/me/datasets/{id}/responses/apply",
      "/api/v1/datasets/{id}/export",
      "/api/v1/datasets/{id}/import"
    ],
    parameters: { id: seed.dataset }
  },
  { paths: ["/api/v1/fields/{id}"], method: "DELETE", parameters: { id: seed.fieldToDelete } },
  { paths: ["/api/v1/fields/{id}"], method: "PATCH", parameters: { id: seed.field } },
  { paths: ["/api/v1/questions/{id}"], method: "DELETE", parameters: { id: seed.questionToDelete } },
  { paths: ["/api/v1/questions/{id}"], method: "PATCH", parameters: { id: seed.question } },
  { paths: ["/api/v1/metadata-properties/{id}"], method: "DELETE", parameters: { id: seed.metadataPropertyToDelete } },
  { paths: ["/api/v1/metadata-properties/{id}"], method: "GET", parameters: { id: seed.metadataProperty } },
  { paths: ["/api/v1/metadata-properties/{id}"], method: "PATCH", parameters: { id: seed.metadataProperty } },
  { paths: ["/api/v1/metadata-properties/{id}/metrics"], parameters: { id: seed.metadataProperty } },
  { paths: ["/api/v1/vectors-settings/{id}"], method: "DELETE", parameters: { id: seed.vectorSettingsToDelete } },
  { paths: ["/api/v1/vectors-settings/{id}"], method: "PATCH", parameters: { id: seed.vectorSettings } },
  { paths: ["/api/v1/records/{id}"], method: "DELETE", parameters: { id: seed.recordToDelete } },
  { paths: ["/api/v1/records/{id}"], method: "GET", parameters: { id: seed.record } },
  { paths: ["/api/v1/records/{id}"], method: "PATCH", parameters: { id: seed.record } },
  { paths: ["/api/v1/records/{id}/responses"], parameters: { id: seed.recordToAnswer } },
  { paths: ["/api/v1/records/{id}/suggestions"], parameters: { id: seed.record } },
  { paths: ["/api/v1/responses/{id}"], method: "DELETE", parameters: { id: seed.responseToDelete } },
  { paths: ["/api/v1/responses/{id}"], method: "PUT", parameters: { id: seed.response } },
  { paths: ["/api/v1/suggestions/{id}"], parameters: { id: seed.suggestionToDelete } },
  { paths: ["/api/v1/webhooks/{id}"], method: "DELETE", parameters: { id: seed.webhookToDelete } },
  { paths: ["/api/v1/webhooks/{id}"], method: "PATCH", parameters: { id: seed.webhook } },
  { paths: ["/api/v1/webhooks/{id}/ping"], parameters: { id: seed.webhook } }
]

const toml = (value: string | ReadonlyArray<string>): string =>
  typeof value === "string" ? JSON.stringify(value) : `[${value.map((item) => JSON.stringify(item)).join(", ")}]`

/** schemathesis.toml for a run against `apiKey`'s account with the seeded ids. */
export const schemathesisToml = (seed: FuzzSeed, apiKey: string) =>
  [
    `[headers]`,
    `X-Argilla-Api-Key = ${toml(apiKey)}`,
    ``,
    // Otherwise Schemathesis signs a new user up through POST /users and sends its token instead of the owner's key.
    `[auth]`,
    `auto-signup = false`,
    ...operations(seed).flatMap(({ method, parameters, paths }) => [
      ``,
      `[[operations]]`,
      // Schemathesis ORs the `include-*` keys of an entry: a method and a path are given as one name.
      method === undefined
        ? `include-path = ${toml(paths)}`
        : `include-name = ${toml(paths.map((path) => `${method} ${path}`))}`,
      `parameters = { ${Object.entries(parameters).map(([name, id]) => `"path.${name}" = ${toml(id)}`).join(", ")} }`
    ]),
    // A new API key for the owner would leave every later request with the old one a 401
    // (test/http/account.test.ts covers it).
    ``,
    `[[operations]]`,
    `include-name = ${toml(["POST /api/gloss/me/api-key"])}`,
    `enabled = false`
  ].join("\n") + "\n"

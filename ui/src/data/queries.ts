/**
 * Read models for the screens, as TanStack Query options over the typed client. Keys are grouped by dataset so a
 * write can refresh exactly the progress it changed (`refreshProgress`).
 */
import { QueryClient, queryOptions } from "@tanstack/react-query"
import { Effect, Schema } from "effect"
import { DatasetId, type MetadataPropertyId } from "../../../src/domain/Ids.js"
import { call, isUnauthorized } from "./client.js"
import { searchBody } from "./search.js"

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // Typed API failures (404, 403, 422…) will not change on a retry; lost connections may.
      retry: (count, error) => count < 2 && typeof error === "object" && error !== null && "_tag" in error &&
        error._tag === "RequestError"
    }
  }
})

/** A dataset id from the URL, or undefined when it is not one. */
export const datasetIdFrom = (raw: string | undefined): DatasetId | undefined =>
  raw === undefined ? undefined : Schema.decodeUnknownOption(DatasetId)(raw).pipe((o) => (o._tag === "Some" ? o.value : undefined))

// Home shows one progress bar per dataset; a few requests at a time keep a long list from flooding the server.
const progressPermits = Effect.unsafeMakeSemaphore(4)

export const me = queryOptions({
  queryKey: ["me"],
  queryFn: ({ signal }) => call((c) => c.me.me(), signal),
  staleTime: 5 * 60_000
})

export const myWorkspaces = queryOptions({
  queryKey: ["me", "workspaces"],
  queryFn: ({ signal }) => call((c) => Effect.map(c.me.workspaces(), (r) => r.items), signal)
})

export const myDatasets = queryOptions({
  queryKey: ["me", "datasets"],
  queryFn: ({ signal }) => call((c) => Effect.map(c.datasets.listMine({ urlParams: {} }), (r) => r.items), signal)
})

export const dataset = (id: DatasetId) =>
  queryOptions({
    queryKey: ["dataset", id],
    queryFn: ({ signal }) => call((c) => c.datasets.get({ path: { id } }), signal)
  })

export const fields = (id: DatasetId) =>
  queryOptions({
    queryKey: ["dataset", id, "fields"],
    queryFn: ({ signal }) => call((c) => Effect.map(c.fields.list({ path: { id } }), (r) => r.items), signal)
  })

export const questions = (id: DatasetId) =>
  queryOptions({
    queryKey: ["dataset", id, "questions"],
    queryFn: ({ signal }) => call((c) => Effect.map(c.questions.list({ path: { id } }), (r) => r.items), signal)
  })

export const metadataProperties = (id: DatasetId) =>
  queryOptions({
    queryKey: ["dataset", id, "metadata-properties"],
    queryFn: ({ signal }) =>
      call((c) => Effect.map(c.metadataProperties.listMine({ path: { id } }), (r) => r.items), signal)
  })

export const metadataMetrics = (id: MetadataPropertyId) =>
  queryOptions({
    queryKey: ["metadata-property", id, "metrics"],
    queryFn: ({ signal }) => call((c) => c.search.metadataMetrics({ path: { id } }), signal)
  })

export const suggestionAgents = (id: DatasetId) =>
  queryOptions({
    queryKey: ["dataset", id, "suggestion-agents"],
    queryFn: ({ signal }) => call((c) => Effect.map(c.search.suggestionsOptions({ path: { id } }), (r) => r.items), signal)
  })

export const vectorSettings = (id: DatasetId) =>
  queryOptions({
    queryKey: ["dataset", id, "vectors-settings"],
    queryFn: ({ signal }) => call((c) => Effect.map(c.vectorSettings.list({ path: { id } }), (r) => r.items), signal)
  })

export const teamProgress = (id: DatasetId) =>
  queryOptions({
    queryKey: ["dataset", id, "progress", "team"],
    queryFn: ({ signal }) => call((c) => progressPermits.withPermits(1)(c.progress.dataset({ path: { id } })), signal)
  })

export const myProgress = (id: DatasetId) =>
  queryOptions({
    queryKey: ["dataset", id, "progress", "mine"],
    queryFn: ({ signal }) => call((c) => Effect.map(c.progress.mine({ path: { id } }), (r) => r.responses), signal)
  })

/**
 * How many records wait in the caller's own queue (assigned records, then the pool's), as the annotation view walks
 * it where it applies (`queueApplies`), so the Pending tab and "Record n of N" agree; and how many of them are
 * assigned to the caller. Only looks (`reserve: false`): counting reserves nothing. The metrics' `pending` (records less the caller's responses,
 * as in Argilla) also counts records others completed under the task distribution, records assigned to others and
 * pool records others hold, none of which are in the caller's queue.
 */
export const pendingQueue = (id: DatasetId) =>
  queryOptions({
    queryKey: ["dataset", id, "progress", "queue"],
    queryFn: ({ signal }) =>
      call((c) =>
        Effect.map(
          c.assignment.queue({ path: { id }, urlParams: { limit: 1 }, payload: { reserve: false } }),
          (page) => ({ total: page.total, assigned: page.assigned, pool: page.pool, quotaLeft: page.quota_left })
        ), signal)
  })

/**
 * How many records wait in the caller's Pending queue where the dataset's own queue does not apply to them (see
 * `queueApplies`): the total of Argilla's pending search, the view's own, so the tab and "Record n of N" agree.
 */
export const pendingSearch = (id: DatasetId) =>
  queryOptions({
    queryKey: ["dataset", id, "progress", "pending-search"],
    queryFn: ({ signal }) =>
      call((c) =>
        Effect.map(
          c.search.mine({
            path: { id },
            urlParams: { limit: 1 },
            payload: searchBody({ queue: "pending", text: "", metadata: {} })
          }),
          (page) => ({ total: page.total, relation: page.total_relation })
        ), signal)
  })

/**
 * Records completed (by others, under the task distribution) that the caller has not answered: a search's total,
 * so the progress panel says what those records are rather than leaving them out of every figure.
 */
export const completedByOthers = (id: DatasetId) =>
  queryOptions({
    queryKey: ["dataset", id, "progress", "completed-by-others"],
    queryFn: ({ signal }) =>
      call((c) =>
        Effect.map(
          c.search.mine({
            path: { id },
            urlParams: { limit: 1 },
            payload: {
              filters: {
                and: [
                  { type: "terms", scope: { entity: "response", property: "status" }, values: ["pending"] },
                  { type: "terms", scope: { entity: "record", property: "status" }, values: ["completed"] }
                ]
              }
            }
          }),
          (page) => ({ total: page.total, relation: page.total_relation })
        ), signal)
  })

/** After a response is written: both progress panels of that dataset, and the home list's bar. */
export const refreshProgress = (id: DatasetId) =>
  queryClient.invalidateQueries({ queryKey: ["dataset", id, "progress"] })

export const signIn = (username: string, password: string) =>
  call((c) => Effect.map(c.auth.token({ payload: { username, password } }), (t) => t.access_token))

/** The OAuth providers offered on the sign-in page (none unless the server has an OAuth configuration). */
export const oauthProviders = queryOptions({
  queryKey: ["oauth2", "providers"],
  queryFn: ({ signal }) => call((c) => Effect.map(c.oauth2.providers(), (r) => r.items), signal),
  staleTime: Infinity
})

/** Back from the provider: its `code` and `state` (checked against the server's cookie) become a session token. */
export const oauthSignIn = (provider: string, code: string, state: string) =>
  call((c) =>
    Effect.map(c.oauth2.accessToken({ path: { provider }, urlParams: { code, state } }), (t) => t.access_token)
  )

export { isUnauthorized }

/**
 * Components that read the query cache (the record card's "Find similar" asks for the dataset's vector settings)
 * rendered without a server: the cache already holds the answer, so nothing is fetched.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query"
import type { ReactNode } from "react"
import type { DatasetId } from "../../../src/domain/Ids.js"
import { vectorSettings } from "../../src/data/queries.js"

export const withQueries = (datasetId: DatasetId, node: ReactNode) => {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } })
  client.setQueryData(vectorSettings(datasetId).queryKey, [])
  return <QueryClientProvider client={client}>{node}</QueryClientProvider>
}

import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Forbidden, MissingVector, NotFound, Unprocessable } from "../../domain/Errors.js"
import { DatasetId, MetadataPropertyId } from "../../domain/Ids.js"
import { MetadataMetrics, SearchRecordsQuery, SearchRecordsResult, SuggestionsOptions } from "../../domain/Search.js"
import { Authentication } from "../Authentication.js"
import { RecordsPageParams } from "./Records.js"

const InDataset = Schema.Struct({ id: DatasetId })

/** Searching records: text, vectors, filters, sorts, over the configured search engine. */
export class SearchGroup extends HttpApiGroup.make("search")
  .add(
    HttpApiEndpoint.post("mine", "/me/datasets/:id/records/search").setPath(InDataset).setUrlParams(RecordsPageParams)
      .setPayload(SearchRecordsQuery).addSuccess(SearchRecordsResult)
      .annotate(OpenApi.Description, "Caller-scoped: only your responses, visible metadata, your own stable order")
  )
  .add(
    HttpApiEndpoint.post("all", "/datasets/:id/records/search").setPath(InDataset).setUrlParams(RecordsPageParams)
      .setPayload(SearchRecordsQuery).addSuccess(SearchRecordsResult)
  )
  .add(
    HttpApiEndpoint.get("metadataMetrics", "/metadata-properties/:id/metrics")
      .setPath(Schema.Struct({ id: MetadataPropertyId })).addSuccess(MetadataMetrics)
  )
  .add(
    HttpApiEndpoint.get("suggestionsOptions", "/datasets/:id/records/search/suggestions/options").setPath(InDataset)
      .addSuccess(SuggestionsOptions)
  )
  .addError(NotFound.http)
  .addError(Forbidden.http)
  .addError(Unprocessable.http)
  .addError(MissingVector.http)
  .middleware(Authentication)
{}

import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Items } from "../../domain/Common.js"
import { Forbidden, NotFound, Unprocessable } from "../../domain/Errors.js"
import { RecordId, SuggestionId } from "../../domain/Ids.js"
import { Suggestion, SuggestionCreate } from "../../domain/Suggestion.js"
import { Authentication } from "../Authentication.js"

const OfRecord = Schema.Struct({ id: RecordId })

/** Pre-answers by models or people. */
export class SuggestionsGroup extends HttpApiGroup.make("suggestions")
  .add(HttpApiEndpoint.get("list", "/records/:id/suggestions").setPath(OfRecord).addSuccess(Items(Suggestion)))
  .add(
    HttpApiEndpoint.put("upsert", "/records/:id/suggestions").setPath(OfRecord).setPayload(SuggestionCreate)
      .addSuccess(Suggestion, { status: 201 }).addSuccess(Suggestion, { status: 200 })
  )
  .add(
    HttpApiEndpoint.del("deleteMany", "/records/:id/suggestions").setPath(OfRecord)
      .setUrlParams(Schema.Struct({ ids: Schema.optional(Schema.String) })).addSuccess(Schema.Void, { status: 204 })
  )
  .add(
    HttpApiEndpoint.del("delete", "/suggestions/:id").setPath(Schema.Struct({ id: SuggestionId })).addSuccess(Suggestion)
  )
  .addError(NotFound.http)
  .addError(Forbidden.http)
  .addError(Unprocessable.http)
  .middleware(Authentication)
{}


/**
 * The records' wire fast paths: the bulk record endpoints read their body and write their answer here, by hand,
 * instead of through HttpApi's schema decoding and encoding, and the search endpoints write their answer. The hand
 * codecs themselves are `codecs/bulkPayload.ts` (is the payload plain enough to pass as it is?) and
 * `codecs/recordsJson.ts` (the answers as JSON text), each tested to be exactly what the schemas give; this is the
 * HTTP around them.
 *
 * Reading. A payload of the plain shape passes as it is; anything else goes through the schema, read as HttpApi reads
 * every payload (`laxPayload`), so every error is the schema's own: 422 with the same body. Both paths read the body
 * through `request.json`, so the checks made where bodies are read (UTF-8, nesting, lone surrogates: `BodyLimit.ts`)
 * cover the fast one too. The endpoints still declare their payload schemas, from which the docs and the typed client
 * are made; test/unit/bulk-payload.test.ts keeps both paths equal.
 *
 * Writing. The answers go out as the JSON text the schemas would encode; the HTTP tests check that what goes out is
 * exactly what the schema would have written (test/http/responses.test.ts, test/http/records.test.ts).
 */
import { HttpApiError, type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, ParseResult, Schema } from "effect"
import { type BulkMode, plainBulk } from "../codecs/bulkPayload.js"
import { bulkJson, searchJson } from "../codecs/recordsJson.js"
import { type RecordsBulk, RecordsBulkCreate, RecordsBulkUpsert } from "../domain/Record.js"
import type { SearchRecordsResult } from "../domain/Search.js"
import { laxPayload } from "./LaxPayload.js"

// The schema path reads the body as every other payload is read (strict first, then lax; see LaxPayload.ts).
const decodeCreate = Schema.decodeUnknown(laxPayload(RecordsBulkCreate))
const decodeUpsert = Schema.decodeUnknown(laxPayload(RecordsBulkUpsert))

/**
 * What HttpApi reads as the payload of a JSON endpoint: the JSON body (malformed JSON is a defect, answered 422 by
 * ErrorResponses), or the text of a body sent as something else, which the schema then refuses.
 */
const bodyOf = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<unknown> => {
  const contentType = request.headers["content-type"]?.toLowerCase().trim() ?? "application/json"
  return Effect.orDie(contentType.includes("application/json") ? request.json : request.text)
}

/** Reads and decodes a bulk body; a payload the schema refuses fails as HttpApi's own decoding would. */
export const bulkPayload = <M extends BulkMode>(request: HttpServerRequest.HttpServerRequest, mode: M) =>
  Effect.flatMap(bodyOf(request), (body) => {
    const plain = plainBulk(body, mode)
    if (plain !== undefined) return Effect.succeed(plain)
    const decoded = mode === "create" ? decodeCreate(body) : decodeUpsert(body)
    return decoded as Effect.Effect<NonNullable<ReturnType<typeof plainBulk<M>>>, ParseResult.ParseError>
  }).pipe(Effect.catchIf(ParseResult.isParseError, HttpApiError.HttpApiDecodeError.refailParseError))

const json = (text: string, status: number) =>
  HttpServerResponse.text(text, { status, contentType: "application/json" })

/** A `RecordsBulk` answer, as the schema would encode it. */
export const bulkAnswer = (bulk: typeof RecordsBulk.Type, status: number) => json(bulkJson(bulk), status)

/** A `SearchRecordsResult` answer, as the schema would encode it. */
export const searchAnswer = (result: typeof SearchRecordsResult.Type) => json(searchJson(result), 200)

/**
 * The API as the server reads requests: `Api` with every payload read as Argilla's pydantic reads it (Lax.ts) and
 * its failures reduced to the error that matters (InnermostIssue.ts). Handlers are built from this value; the
 * OpenAPI document, the docs and the typed client keep `Api`, whose schemas are strict, and so are all responses.
 */
import { type HttpApi, type HttpApiEndpoint, type HttpApiGroup } from "@effect/platform"
import { Option, Schema } from "effect"
import { Api } from "../contract/Api.js"
import { laxPayload } from "./LaxPayload.js"

const laxEndpoint = (endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps) =>
  Option.match(endpoint.payloadSchema, {
    onNone: () => endpoint,
    // Payload schemas need no services: the view loses that, the AST has it.
    onSome: (payload) => endpoint.setPayload(laxPayload(Schema.make<unknown, unknown, never>(payload.ast)))
  })

const laxGroup = (group: HttpApiGroup.HttpApiGroup.AnyWithProps) =>
  Object.values(group.endpoints).reduce((lax, endpoint) => lax.add(laxEndpoint(endpoint)), group)

const laxApi = (api: HttpApi.HttpApi.AnyWithProps): HttpApi.HttpApi.AnyWithProps =>
  Object.values(api.groups).reduce((lax, group) => lax.add(laxGroup(group)), api)

/**
 * Same groups, endpoints, paths and types as `Api`; only the payload decoders differ, and their decoded types are
 * the declared ones, so the handlers' types hold. (TypeScript cannot follow the rebuild, hence the one assertion.)
 */
export const ServerApi = laxApi(Api as unknown as HttpApi.HttpApi.AnyWithProps) as unknown as typeof Api

import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Token } from "../../domain/Auth.js"
import { Conflict, Forbidden } from "../../domain/Errors.js"
import { SetupRequest, SetupStatus } from "../../domain/Setup.js"

/**
 * First start in the browser (a Gloss extension, under `/api/gloss`): no authentication, since no user exists yet.
 * Creating the first owner needs the set-up token the server logs at start, except from the loopback address.
 */
export class SetupGroup extends HttpApiGroup.make("setup")
  .add(
    HttpApiEndpoint.get("status", "/setup").addSuccess(SetupStatus)
      .annotate(OpenApi.Description, "Whether the first owner is still to be created, and whether that needs the set-up token")
  )
  .add(
    HttpApiEndpoint.post("create", "/setup").setPayload(SetupRequest).addSuccess(Token, { status: 201 })
      .addError(Forbidden.http)
      .addError(Conflict.http)
      .annotate(
        OpenApi.Description,
        "Create the first owner and a first workspace, and sign in as that owner. 403 for a missing or wrong set-up " +
          "token, 409 once an owner exists."
      )
  )
  .annotate(OpenApi.Description, "First start: the first owner (Gloss extension)")
{}

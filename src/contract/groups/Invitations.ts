import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Token } from "../../domain/Auth.js"
import { Items } from "../../domain/Common.js"
import { Conflict, Forbidden, NotFound } from "../../domain/Errors.js"
import {
  CreatedInvitation,
  Invitation,
  InvitationAccept,
  InvitationCreate,
  InvitationId,
  InvitationLookup,
  InvitationToken
} from "../../domain/Invitation.js"
import { Authentication } from "../Authentication.js"

/**
 * Invitation links (a Gloss extension, under `/api/gloss`). Owners invite admins and annotators into any
 * workspaces; admins invite annotators into workspaces they belong to. The link's token is answered once, at
 * creation; the server keeps only its digest. Looking up and accepting an invitation needs no authentication.
 */
export class InvitationsGroup extends HttpApiGroup.make("invitations")
  .add(
    HttpApiEndpoint.post("create", "/invitations").setPayload(InvitationCreate)
      .addSuccess(CreatedInvitation, { status: 201 })
      .addError(Forbidden.http).addError(NotFound.http)
      .middleware(Authentication)
      .annotate(OpenApi.Description, "Invite someone: the answer carries the link's token, shown only this once")
  )
  .add(
    HttpApiEndpoint.get("list", "/invitations").addSuccess(Items(Invitation))
      .addError(Forbidden.http)
      .middleware(Authentication)
      .annotate(OpenApi.Description, "Pending invitations: every one for owners, those into their workspaces for admins")
  )
  .add(
    HttpApiEndpoint.del("revoke", "/invitations/:id").setPath(Schema.Struct({ id: InvitationId }))
      .addSuccess(Invitation)
      .addError(Forbidden.http).addError(NotFound.http)
      .middleware(Authentication)
      .annotate(OpenApi.Description, "Revoke a pending invitation: its link stops working")
  )
  .add(
    HttpApiEndpoint.get("lookup", "/invitations/lookup").setUrlParams(Schema.Struct({ token: InvitationToken }))
      .addSuccess(InvitationLookup)
      .addError(NotFound.http)
      .annotate(
        OpenApi.Description,
        "What an invitation offers (no authentication). 404 alike for an unknown, used, revoked or expired one."
      )
  )
  .add(
    HttpApiEndpoint.post("accept", "/invitations/accept").setPayload(InvitationAccept)
      .addSuccess(Token, { status: 201 })
      .addError(NotFound.http).addError(Conflict.http)
      .annotate(
        OpenApi.Description,
        "Accept an invitation (no authentication): creates the user with its role and workspaces and signs them in. " +
          "409 for a username that is taken."
      )
  )
  .annotate(OpenApi.Description, "Invitation links (Gloss extension)")
{}

/**
 * The one API definition. The server implements it (`handlers/`), the OpenAPI document and the docs pages are
 * derived from it, and the client is `HttpApiClient.make(Api)`. Keep this file and `groups/` free of server code.
 */
import { HttpApi, OpenApi } from "@effect/platform"
import { InternalServerError, PayloadTooLarge, ServiceUnavailable, ValidationError } from "../domain/Errors.js"
import { AccountGroup } from "./groups/Account.js"
import { AuthGroup } from "./groups/Auth.js"
import { DatasetsGroup } from "./groups/Datasets.js"
import { ExportsGroup } from "./groups/Exports.js"
import { FieldsGroup, MetadataPropertiesGroup, QuestionsGroup, VectorSettingsGroup } from "./groups/DatasetSettings.js"
import { HealthGroup } from "./groups/Health.js"
import { InfoGroup } from "./groups/Info.js"
import { InvitationsGroup } from "./groups/Invitations.js"
import { JobsGroup } from "./groups/Jobs.js"
import { MeGroup } from "./groups/Me.js"
import { OAuth2Group } from "./groups/OAuth2.js"
import { ProgressGroup } from "./groups/Progress.js"
import { RecordsGroup } from "./groups/Records.js"
import { AssignmentGroup } from "./groups/Assignment.js"
import { ReviewGroup } from "./groups/Review.js"
import { ResponsesGroup } from "./groups/Responses.js"
import { SearchGroup } from "./groups/Search.js"
import { SetupGroup } from "./groups/Setup.js"
import { SuggestionsGroup } from "./groups/Suggestions.js"
import { UsersGroup } from "./groups/Users.js"
import { WebhooksGroup } from "./groups/Webhooks.js"
import { WorkspacesGroup } from "./groups/Workspaces.js"

export class Api extends HttpApi.make("gloss")
  .add(InfoGroup)
  .add(HealthGroup)
  .add(AuthGroup)
  .add(OAuth2Group)
  .add(MeGroup)
  .add(UsersGroup)
  .add(JobsGroup)
  .add(WorkspacesGroup)
  .add(DatasetsGroup)
  .add(FieldsGroup)
  .add(QuestionsGroup)
  .add(MetadataPropertiesGroup)
  .add(VectorSettingsGroup)
  .add(RecordsGroup)
  .add(ResponsesGroup)
  .add(SuggestionsGroup)
  .add(ProgressGroup)
  .add(SearchGroup)
  .add(WebhooksGroup)
  // Failures any endpoint can answer with: a request that does not match its schema, a body over the size limit,
  // a database that stayed locked past its timeout, and the unexpected.
  .addError(ValidationError.http)
  .addError(PayloadTooLarge.http)
  .addError(ServiceUnavailable.http)
  .addError(InternalServerError.http)
  .prefix("/api/v1")
  // Gloss's own endpoints, outside Argilla's paths (`prefix` above only prefixed the groups added before it).
  .add(SetupGroup.prefix("/api/gloss"))
  .add(InvitationsGroup.prefix("/api/gloss"))
  .add(AccountGroup.prefix("/api/gloss"))
  .add(ExportsGroup.prefix("/api/gloss"))
  .add(ReviewGroup.prefix("/api/gloss"))
  .add(AssignmentGroup.prefix("/api/gloss"))
  .annotate(OpenApi.Title, "Gloss API")
  .annotate(OpenApi.Description, "Annotation server, wire-compatible with Argilla's /api/v1")
{}

import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Settings, Status, Version } from "../../domain/Info.js"

/** Public endpoints: no credentials needed. */
export class InfoGroup extends HttpApiGroup.make("info")
  .add(HttpApiEndpoint.get("version", "/version").addSuccess(Version))
  .add(HttpApiEndpoint.get("status", "/status").addSuccess(Status))
  .add(HttpApiEndpoint.get("settings", "/settings").addSuccess(Settings))
  .annotate(OpenApi.Description, "Server version, status and the settings the web UI reads anonymously")
{}

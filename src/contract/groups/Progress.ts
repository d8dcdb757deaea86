import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Forbidden, NotFound } from "../../domain/Errors.js"
import { DatasetId } from "../../domain/Ids.js"
import { DatasetProgress, MyMetrics, UsersProgress } from "../../domain/Progress.js"
import { Authentication } from "../Authentication.js"

const OfDataset = Schema.Struct({ id: DatasetId })

/** How far annotation has come. */
export class ProgressGroup extends HttpApiGroup.make("progress")
  .add(HttpApiEndpoint.get("dataset", "/datasets/:id/progress").setPath(OfDataset).addSuccess(DatasetProgress))
  .add(HttpApiEndpoint.get("users", "/datasets/:id/users/progress").setPath(OfDataset).addSuccess(UsersProgress))
  .add(HttpApiEndpoint.get("mine", "/me/datasets/:id/metrics").setPath(OfDataset).addSuccess(MyMetrics))
  .addError(NotFound.http)
  .addError(Forbidden.http)
  .middleware(Authentication)
{}

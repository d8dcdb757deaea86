import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Items } from "../../domain/Common.js"
import { Dataset, DatasetCreate, DatasetsFilter, DatasetUpdate } from "../../domain/Dataset.js"
import { Conflict, Forbidden, NotFound, Unprocessable } from "../../domain/Errors.js"
import { DatasetHubExport, DatasetHubImport } from "../../domain/HubTransfer.js"
import { DatasetId } from "../../domain/Ids.js"
import { Job } from "../../domain/Job.js"
import { Authentication } from "../Authentication.js"

const ById = Schema.Struct({ id: DatasetId })

/** Datasets. Listing is only `GET /me/datasets`, as in Argilla. */
export class DatasetsGroup extends HttpApiGroup.make("datasets")
  .add(HttpApiEndpoint.get("listMine", "/me/datasets").setUrlParams(DatasetsFilter).addSuccess(Items(Dataset)))
  .add(
    HttpApiEndpoint.post("create", "/datasets").setPayload(DatasetCreate).addSuccess(Dataset, { status: 201 })
      .addError(Conflict.http).addError(Unprocessable.http)
  )
  .add(HttpApiEndpoint.get("get", "/datasets/:id").setPath(ById).addSuccess(Dataset).addError(NotFound.http))
  .add(
    HttpApiEndpoint.patch("update", "/datasets/:id").setPath(ById).setPayload(DatasetUpdate).addSuccess(Dataset)
      .addError(NotFound.http).addError(Conflict.http)
  )
  .add(HttpApiEndpoint.del("delete", "/datasets/:id").setPath(ById).addSuccess(Dataset).addError(NotFound.http))
  .add(
    HttpApiEndpoint.put("publish", "/datasets/:id/publish").setPath(ById).addSuccess(Dataset)
      .addError(NotFound.http).addError(Unprocessable.http)
  )
  .add(
    HttpApiEndpoint.post("exportToHub", "/datasets/:id/export").setPath(ById).setPayload(DatasetHubExport)
      .addSuccess(Job, { status: 202 }).addError(NotFound.http).addError(Unprocessable.http)
      .annotate(OpenApi.Description, "Push the dataset to a Hugging Face Hub dataset repo, as a job")
  )
  .add(
    HttpApiEndpoint.post("importFromHub", "/datasets/:id/import").setPath(ById).setPayload(DatasetHubImport)
      .addSuccess(Job, { status: 202 }).addError(NotFound.http).addError(Unprocessable.http)
      .annotate(OpenApi.Description, "Import the rows of a Hugging Face Hub dataset as records, by a mapping, as a job")
  )
  .addError(Forbidden.http)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Datasets: create as draft, configure, publish, export and import")
{}

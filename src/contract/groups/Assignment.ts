import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  AssignmentSummary,
  AssignRequest,
  AssignResult,
  LeaseRelease,
  MoveRequest,
  MoveResult,
  PriorityRequest,
  PriorityResult,
  QueuePage,
  QueueRequest,
  QueueSettings,
  QueueSettingsUpdate,
  QuotaUpdate,
  UnassignRequest,
  UnassignResult
} from "../../domain/Assignment.js"
import { Forbidden, NotFound, Unprocessable } from "../../domain/Errors.js"
import { DatasetId } from "../../domain/Ids.js"
import { Authentication } from "../Authentication.js"
import { RecordsPageParams } from "./Records.js"

const OfDataset = Schema.Struct({ id: DatasetId })

/**
 * Assignment (a Gloss extension outside Argilla's paths): who annotates which records, the queue each annotator
 * works through, leases, quotas, priorities and blind mode. Owners and the workspace's admins assign; everyone in
 * the workspace reads their own queue.
 */
export class AssignmentGroup extends HttpApiGroup.make("assignment")
  .add(
    HttpApiEndpoint.get("settings", "/datasets/:id/queue-settings").setPath(OfDataset).addSuccess(QueueSettings)
      .annotate(OpenApi.Description, "How the dataset's queues are made: assigned first or only, order, leases, blind mode, quota.")
  )
  .add(
    HttpApiEndpoint.put("updateSettings", "/datasets/:id/queue-settings").setPath(OfDataset)
      .setPayload(QueueSettingsUpdate).addSuccess(QueueSettings).addError(Unprocessable.http)
      .annotate(OpenApi.Description, "Change the queue settings (owners, and the workspace's admins); settings left out keep their value.")
  )
  .add(
    HttpApiEndpoint.get("summary", "/datasets/:id/assignments").setPath(OfDataset).addSuccess(AssignmentSummary)
      .annotate(OpenApi.Description, "Per user: records assigned, done, reserved, waiting, and their quota.")
  )
  .add(
    HttpApiEndpoint.post("assign", "/datasets/:id/assignments").setPath(OfDataset).setPayload(AssignRequest)
      .addSuccess(AssignResult).addError(Unprocessable.http)
      .annotate(
        OpenApi.Description,
        "Assign records (by id, or every record a search matches) to users or a group of users, `per_record` of " +
          "them per record, the least loaded first."
      )
  )
  .add(
    HttpApiEndpoint.post("unassign", "/datasets/:id/assignments/remove").setPath(OfDataset)
      .setPayload(UnassignRequest).addSuccess(UnassignResult).addError(Unprocessable.http)
      .annotate(OpenApi.Description, "Remove assignments: of these users (or everybody's), on the records selected (or every record).")
  )
  .add(
    HttpApiEndpoint.post("move", "/datasets/:id/assignments/move").setPath(OfDataset).setPayload(MoveRequest)
      .addSuccess(MoveResult).addError(Unprocessable.http)
      .annotate(OpenApi.Description, "Move a user's unanswered assignments (or those selected) to other users.")
  )
  .add(
    HttpApiEndpoint.put("setQuota", "/datasets/:id/quotas").setPath(OfDataset).setPayload(QuotaUpdate)
      .addSuccess(AssignmentSummary).addError(Unprocessable.http)
      .annotate(OpenApi.Description, "Set or clear one user's quota of pool records in the dataset.")
  )
  .add(
    HttpApiEndpoint.post("prioritize", "/datasets/:id/priorities").setPath(OfDataset).setPayload(PriorityRequest)
      .addSuccess(PriorityResult).addError(Unprocessable.http)
      .annotate(OpenApi.Description, "Give records a priority: higher comes first in every queue.")
  )
  .add(
    HttpApiEndpoint.post("queue", "/me/datasets/:id/queue").setPath(OfDataset).setUrlParams(RecordsPageParams)
      .setPayload(QueueRequest).addSuccess(QueuePage).addError(Unprocessable.http)
      .annotate(
        OpenApi.Description,
        "A page of the caller's queue: their assigned records, then the pool's, in the dataset's order, each with " +
          "why it is there and its position; the page's pool records are reserved for the caller for the lease time."
      )
  )
  .add(
    HttpApiEndpoint.post("release", "/me/datasets/:id/queue/release").setPath(OfDataset).addSuccess(LeaseRelease)
      .annotate(OpenApi.Description, "Give back every pool record reserved for the caller in the dataset.")
  )
  .addError(NotFound.http)
  .addError(Forbidden.http)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Assignment: who annotates what, queues, leases, quotas and blind mode (Gloss extension)")
{}

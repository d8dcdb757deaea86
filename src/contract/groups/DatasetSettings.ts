/**
 * A dataset's settings: fields, questions, metadata properties and vector settings.
 * Each is listed and created under its dataset and updated or deleted by its own id.
 */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Items } from "../../domain/Common.js"
import { Conflict, Forbidden, NotFound, Unprocessable } from "../../domain/Errors.js"
import { Field, FieldCreate, FieldUpdate } from "../../domain/Field.js"
import { DatasetId, FieldId, MetadataPropertyId, QuestionId, VectorSettingsId } from "../../domain/Ids.js"
import { MetadataProperty, MetadataPropertyCreate, MetadataPropertyUpdate } from "../../domain/MetadataProperty.js"
import { Question, QuestionCreate, QuestionUpdate } from "../../domain/Question.js"
import { VectorSettings, VectorSettingsCreate, VectorSettingsUpdate } from "../../domain/VectorSettings.js"
import { Authentication } from "../Authentication.js"

const InDataset = Schema.Struct({ id: DatasetId })

export class FieldsGroup extends HttpApiGroup.make("fields")
  .add(HttpApiEndpoint.get("list", "/datasets/:id/fields").setPath(InDataset).addSuccess(Items(Field)))
  .add(
    HttpApiEndpoint.post("create", "/datasets/:id/fields").setPath(InDataset).setPayload(FieldCreate)
      .addSuccess(Field, { status: 201 }).addError(Conflict.http).addError(Unprocessable.http)
  )
  .add(
    HttpApiEndpoint.patch("update", "/fields/:id").setPath(Schema.Struct({ id: FieldId })).setPayload(FieldUpdate)
      .addSuccess(Field).addError(Unprocessable.http)
  )
  .add(
    HttpApiEndpoint.del("delete", "/fields/:id").setPath(Schema.Struct({ id: FieldId })).addSuccess(Field)
      .addError(Unprocessable.http)
  )
  .addError(NotFound.http)
  .addError(Forbidden.http)
  .middleware(Authentication)
{}

export class QuestionsGroup extends HttpApiGroup.make("questions")
  .add(HttpApiEndpoint.get("list", "/datasets/:id/questions").setPath(InDataset).addSuccess(Items(Question)))
  .add(
    HttpApiEndpoint.post("create", "/datasets/:id/questions").setPath(InDataset).setPayload(QuestionCreate)
      .addSuccess(Question, { status: 201 }).addError(Conflict.http).addError(Unprocessable.http)
  )
  .add(
    HttpApiEndpoint.patch("update", "/questions/:id").setPath(Schema.Struct({ id: QuestionId }))
      .setPayload(QuestionUpdate).addSuccess(Question).addError(Unprocessable.http)
  )
  .add(
    HttpApiEndpoint.del("delete", "/questions/:id").setPath(Schema.Struct({ id: QuestionId })).addSuccess(Question)
      .addError(Unprocessable.http)
  )
  .addError(NotFound.http)
  .addError(Forbidden.http)
  .middleware(Authentication)
{}

const MetadataById = Schema.Struct({ id: MetadataPropertyId })

export class MetadataPropertiesGroup extends HttpApiGroup.make("metadataProperties")
  .add(
    HttpApiEndpoint.get("listMine", "/me/datasets/:id/metadata-properties").setPath(InDataset)
      .addSuccess(Items(MetadataProperty))
  )
  .add(
    HttpApiEndpoint.get("list", "/datasets/:id/metadata-properties").setPath(InDataset)
      .addSuccess(Items(MetadataProperty))
  )
  .add(
    HttpApiEndpoint.post("create", "/datasets/:id/metadata-properties").setPath(InDataset)
      .setPayload(MetadataPropertyCreate).addSuccess(MetadataProperty, { status: 201 }).addError(Conflict.http)
  )
  .add(HttpApiEndpoint.get("get", "/metadata-properties/:id").setPath(MetadataById).addSuccess(MetadataProperty))
  .add(
    HttpApiEndpoint.patch("update", "/metadata-properties/:id").setPath(MetadataById)
      .setPayload(MetadataPropertyUpdate).addSuccess(MetadataProperty)
  )
  .add(HttpApiEndpoint.del("delete", "/metadata-properties/:id").setPath(MetadataById).addSuccess(MetadataProperty))
  .addError(NotFound.http)
  .addError(Forbidden.http)
  .middleware(Authentication)
{}

const VectorsById = Schema.Struct({ id: VectorSettingsId })

export class VectorSettingsGroup extends HttpApiGroup.make("vectorSettings")
  .add(
    HttpApiEndpoint.get("list", "/datasets/:id/vectors-settings").setPath(InDataset).addSuccess(Items(VectorSettings))
  )
  .add(
    HttpApiEndpoint.post("create", "/datasets/:id/vectors-settings").setPath(InDataset)
      .setPayload(VectorSettingsCreate).addSuccess(VectorSettings, { status: 201 })
      .addError(Conflict.http).addError(Unprocessable.http)
  )
  .add(
    HttpApiEndpoint.patch("update", "/vectors-settings/:id").setPath(VectorsById).setPayload(VectorSettingsUpdate)
      .addSuccess(VectorSettings)
  )
  .add(HttpApiEndpoint.del("delete", "/vectors-settings/:id").setPath(VectorsById).addSuccess(VectorSettings))
  .addError(NotFound.http)
  .addError(Forbidden.http)
  .middleware(Authentication)
{}

import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Fields } from "../../services/datasets/Fields.js"
import { MetadataProperties } from "../../services/datasets/MetadataProperties.js"
import { Questions } from "../../services/datasets/Questions.js"
import { VectorSettings } from "../../services/datasets/VectorSettings.js"
import { ServerApi } from "../ServerApi.js"
import { CurrentUser } from "../../contract/Authentication.js"

const items = <A>(list: ReadonlyArray<A>) => ({ items: list })

export const FieldsLive = HttpApiBuilder.group(ServerApi, "fields", (handlers) =>
  Effect.gen(function*() {
    const fields = yield* Fields
    return handlers
      .handle("list", ({ path }) => Effect.flatMap(CurrentUser, (actor) => fields.list(actor, path.id)).pipe(Effect.map(items)))
      .handle("create", ({ path, payload }) => Effect.flatMap(CurrentUser, (actor) => fields.create(actor, path.id, payload)))
      .handle("update", ({ path, payload }) => Effect.flatMap(CurrentUser, (actor) => fields.update(actor, path.id, payload)))
      .handle("delete", ({ path }) => Effect.flatMap(CurrentUser, (actor) => fields.delete(actor, path.id)))
  })).pipe(Layer.provide(Fields.Default))

export const QuestionsLive = HttpApiBuilder.group(ServerApi, "questions", (handlers) =>
  Effect.gen(function*() {
    const questions = yield* Questions
    return handlers
      .handle("list", ({ path }) =>
        Effect.flatMap(CurrentUser, (actor) => questions.list(actor, path.id)).pipe(Effect.map(items)))
      .handle("create", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (actor) => questions.create(actor, path.id, payload)))
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (actor) => questions.update(actor, path.id, payload)))
      .handle("delete", ({ path }) => Effect.flatMap(CurrentUser, (actor) => questions.delete(actor, path.id)))
  })).pipe(Layer.provide(Questions.Default))

export const MetadataPropertiesLive = HttpApiBuilder.group(ServerApi, "metadataProperties", (handlers) =>
  Effect.gen(function*() {
    const properties = yield* MetadataProperties
    return handlers
      .handle("listMine", ({ path }) =>
        Effect.flatMap(CurrentUser, (actor) => properties.listVisible(actor, path.id)).pipe(Effect.map(items)))
      .handle("list", ({ path }) =>
        Effect.flatMap(CurrentUser, (actor) => properties.listVisible(actor, path.id)).pipe(Effect.map(items)))
      .handle("create", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (actor) => properties.create(actor, path.id, payload)))
      .handle("get", ({ path }) => Effect.flatMap(CurrentUser, (actor) => properties.get(actor, path.id)))
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (actor) => properties.update(actor, path.id, payload)))
      .handle("delete", ({ path }) => Effect.flatMap(CurrentUser, (actor) => properties.delete(actor, path.id)))
  })).pipe(Layer.provide(MetadataProperties.Default))

export const VectorSettingsLive = HttpApiBuilder.group(ServerApi, "vectorSettings", (handlers) =>
  Effect.gen(function*() {
    const vectors = yield* VectorSettings
    return handlers
      .handle("list", ({ path }) =>
        Effect.flatMap(CurrentUser, (actor) => vectors.list(actor, path.id)).pipe(Effect.map(items)))
      .handle("create", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (actor) => vectors.create(actor, path.id, payload)))
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (actor) => vectors.update(actor, path.id, payload)))
      .handle("delete", ({ path }) => Effect.flatMap(CurrentUser, (actor) => vectors.delete(actor, path.id)))
  })).pipe(Layer.provide(VectorSettings.Default))

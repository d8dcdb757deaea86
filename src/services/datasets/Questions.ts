import { Effect, Option } from "effect"
import { GlossConfig } from "../../Config.js"
import { Unprocessable } from "../../domain/Errors.js"
import { type DatasetId, QuestionId } from "../../domain/Ids.js"
import { NewQuestion, type QuestionCreate, type QuestionUpdate } from "../../domain/Question.js"
import type { User } from "../../domain/User.js"
import { now } from "../clock.js"
import { Database } from "../database/Database.js"
import { withDefaults } from "../defaults.js"
import { orNotFound } from "../found.js"
import { Datasets } from "./Datasets.js"
import { applySettingsUpdate, checkOptionLimits } from "./questionRules.js"
import type { QuestionRow } from "./rows.js"
import { SettingsRepo } from "./SettingsRepo.js"
import { settingNameTaken } from "./conflicts.js"
import { newId } from "../ids.js"

export class Questions extends Effect.Service<Questions>()("Gloss/Questions", {
  effect: Effect.gen(function*() {
    const { fields, questions } = yield* SettingsRepo
    const datasets = yield* Datasets
    const db = yield* Database
    const { limits } = yield* GlossConfig

    const manage = (actor: User, id: QuestionId) =>
      Effect.gen(function*() {
        const question = yield* questions.findById(id).pipe(orNotFound("Question", id))
        const dataset = yield* datasets.access(actor, question.dataset_id, "datasets.manage")
        return { question, dataset }
      })

    const list = Effect.fn("Questions.list")(function*(actor: User, datasetId: DatasetId) {
      yield* datasets.access(actor, datasetId, "datasets.read")
      return yield* questions.listByDataset(datasetId)
    })

    /** A span question annotates one text field, and a field carries at most one span question. */
    const checkSpanField = (datasetId: DatasetId, field: string) =>
      Effect.gen(function*() {
        const target = (yield* fields.listByDataset(datasetId)).find((f) => f.name === field)
        if (target === undefined || target.settings.type !== "text") {
          return yield* new Unprocessable({
            detail: `Span question needs a text field, but dataset with id \`${datasetId}\` has no text field named \`${field}\``
          })
        }
        const taken = (yield* questions.listByDataset(datasetId)).find((q) =>
          q.settings.type === "span" && q.settings.field === field
        )
        if (taken !== undefined) {
          return yield* new Unprocessable({
            detail: `Field \`${field}\` is already used by span question \`${taken.name}\``
          })
        }
      })

    const create = Effect.fn("Questions.create")(function*(actor: User, datasetId: DatasetId, payload: QuestionCreate) {
      const input = yield* withDefaults(NewQuestion)(payload)
      const dataset = yield* datasets.access(actor, datasetId, "datasets.manage")
      const existing = yield* questions.listByDataset(datasetId)
      if (existing.some((question) => question.name === input.name)) {
        return yield* settingNameTaken("Question", input.name, datasetId)
      }
      if (dataset.status === "ready") {
        return yield* new Unprocessable({ detail: "questions cannot be created for a published dataset" })
      }
      yield* checkOptionLimits(input.settings, limits)
      if (input.settings.type === "span") yield* checkSpanField(datasetId, input.settings.field)
      const at = yield* now
      const row: QuestionRow = {
        // An id in the body is ignored, as Argilla's create schema has none: the server always issues a new one.
        id: QuestionId.make(newId()),
        name: input.name,
        title: input.title,
        description: input.description ?? null,
        required: input.required,
        settings: input.settings,
        dataset_id: datasetId,
        inserted_at: at,
        updated_at: at
      }
      return yield* db.write(questions.insert(row)).pipe(
        Effect.flatMap(Option.match({
          onSome: Effect.succeed,
          // The name was free a moment ago: a concurrent create took it.
          onNone: () => Effect.fail(settingNameTaken("Question", input.name, datasetId))
        }))
      )
    })

    const update = Effect.fn("Questions.update")(function*(actor: User, id: QuestionId, patch: QuestionUpdate) {
      const { question } = yield* manage(actor, id)
      const settings = patch.settings === undefined
        ? question.settings
        : yield* applySettingsUpdate(question.settings, patch.settings)
      yield* checkOptionLimits(settings, limits)
      const next: QuestionRow = {
        ...question,
        title: patch.title ?? question.title,
        description: patch.description === undefined ? question.description : patch.description,
        settings,
        updated_at: yield* now
      }
      return yield* db.write(questions.replace(next)).pipe(orNotFound("Question", id))
    })

    const remove = Effect.fn("Questions.delete")(function*(actor: User, id: QuestionId) {
      const { dataset, question } = yield* manage(actor, id)
      if (dataset.status === "ready") {
        return yield* new Unprocessable({ detail: "questions cannot be deleted for a published dataset" })
      }
      yield* db.write(questions.delete(id))
      return question
    })

    return { list, create, update, delete: remove, listByDataset: questions.listByDataset } as const
  }),
  dependencies: [SettingsRepo.Default, Datasets.Default, Database.Default]
}) {}

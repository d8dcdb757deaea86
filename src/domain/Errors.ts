/**
 * Every failure a client can see. Each class is a tagged error (so `Effect.catchTag` works on both sides of the
 * wire); its static `http` schema is what endpoints declare: the HTTP status and the contract's exact body
 * (Argilla's error shapes), without the `_tag` that a plain TaggedError would put on the wire.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

const ARGILLA_ERRORS = "argilla.api.errors::"

/** `{"detail": "<message>"}`: the contract's shape for domain errors. */
const detailBody = <E extends { readonly detail: string }>(
  Class: DetailError<E>,
  status: number
): Schema.Schema<E, DetailBody> =>
  Schema.transform(Schema.Struct({ detail: Schema.String }), Schema.instanceOf(Class), {
    strict: true,
    decode: ({ detail }) => new Class({ detail }),
    encode: (error) => ({ detail: error.detail })
  }).annotations(HttpApiSchema.annotations({ status }))

type DetailError<E> = new(props: { readonly detail: string }) => E
interface DetailBody {
  readonly detail: string
}

/** `{"detail": {"code": "argilla.api.errors::<Class>", "params": {"detail": "<message>"}}}`. */
const codedBody = <E extends { readonly detail: string }>(
  Class: DetailError<E>,
  code: string,
  status: number
): Schema.Schema<E, CodedBody> =>
  Schema.transform(
    Schema.Struct({
      detail: Schema.Struct({ code: Schema.Literal(ARGILLA_ERRORS + code), params: Schema.Struct({ detail: Schema.String }) })
    }),
    Schema.instanceOf(Class),
    {
      strict: true,
      decode: ({ detail }) => new Class({ detail: detail.params.detail }),
      encode: (error) => ({ detail: { code: ARGILLA_ERRORS + code, params: { detail: error.detail } } })
    }
  ).annotations(HttpApiSchema.annotations({ status }))

interface CodedBody {
  readonly detail: { readonly code: string; readonly params: { readonly detail: string } }
}

export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", { detail: Schema.String }) {
  static readonly couldNotValidate = () => new Unauthorized({ detail: "Could not validate credentials" })
  static readonly invalidToken = () => new Unauthorized({ detail: "Invalid token" })
  static readonly http: Schema.Schema<Unauthorized, CodedBody> = codedBody(Unauthorized, "UnauthorizedError", 401)
}

export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", { detail: Schema.String }) {
  static readonly operationNotAllowed = () => new Forbidden({ detail: "Operation not allowed" })
  static readonly http: Schema.Schema<Forbidden, CodedBody> = codedBody(Forbidden, "ForbiddenOperationError", 403)
}

export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", { detail: Schema.String }) {
  /** The contract's wording: "Dataset with id `…` not found". */
  static readonly byId = (entity: string, id: string) => new NotFound({ detail: `${entity} with id \`${id}\` not found` })
  static readonly http: Schema.Schema<NotFound, DetailBody> = detailBody(NotFound, 404)
}

export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", { detail: Schema.String }) {
  static readonly http: Schema.Schema<Conflict, DetailBody> = detailBody(Conflict, 409)
}

/** A semantic rule of the contract was broken (422 with a plain `detail` message). */
export class Unprocessable extends Schema.TaggedError<Unprocessable>()("Unprocessable", { detail: Schema.String }) {
  static readonly http: Schema.Schema<Unprocessable, DetailBody> = detailBody(Unprocessable, 422)
}

export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", {
  detail: Schema.String
}) {
  static readonly http: Schema.Schema<PayloadTooLarge, DetailBody> = detailBody(PayloadTooLarge, 413)
}

/** The database stayed locked past its timeout, or another dependency is down: try again later. */
export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>()("ServiceUnavailable", {
  detail: Schema.String
}) {
  static readonly http: Schema.Schema<ServiceUnavailable, DetailBody> = detailBody(ServiceUnavailable, 503)
}

export const ValidationIssue = Schema.Struct({
  loc: Schema.Array(Schema.Union(Schema.String, Schema.Number)),
  msg: Schema.String,
  type: Schema.String
})
export type ValidationIssue = typeof ValidationIssue.Type

/** A request that does not match its schema: FastAPI's error list inside the Argilla error shape. */
export class ValidationError extends Schema.TaggedError<ValidationError>()("ValidationError", {
  errors: Schema.Array(ValidationIssue)
}) {
  override get message() {
    return this.errors.map((e) => `${e.loc.join(".")}: ${e.msg}`).join("; ")
  }
  static readonly http: Schema.Schema<ValidationError, ValidationBody> = Schema.transform(
    Schema.Struct({
      detail: Schema.Struct({
        code: Schema.Literal(ARGILLA_ERRORS + "ValidationError"),
        params: Schema.Struct({ errors: Schema.Array(ValidationIssue) })
      })
    }),
    Schema.instanceOf(ValidationError),
    {
      strict: true,
      decode: ({ detail }) => new ValidationError({ errors: detail.params.errors }),
      encode: (error) => ({ detail: { code: ARGILLA_ERRORS + "ValidationError", params: { errors: error.errors } } })
    }
  ).annotations(HttpApiSchema.annotations({ status: 422 }))
}

interface ValidationBody {
  readonly detail: {
    readonly code: string
    readonly params: { readonly errors: ReadonlyArray<ValidationIssue> }
  }
}

/** An unexpected failure. The body names no internals: the cause is in the server log. */
export class InternalServerError extends Schema.TaggedError<InternalServerError>()("InternalServerError", {
  detail: Schema.String
}) {
  static readonly http: Schema.Schema<InternalServerError, GenericBody> = Schema.transform(
    Schema.Struct({
      detail: Schema.Struct({
        code: Schema.Literal(ARGILLA_ERRORS + "GenericServerError"),
        params: Schema.Struct({ type: Schema.String, message: Schema.String })
      })
    }),
    Schema.instanceOf(InternalServerError),
    {
      strict: true,
      decode: ({ detail }) => new InternalServerError({ detail: detail.params.message }),
      encode: (error) => ({
        detail: { code: ARGILLA_ERRORS + "GenericServerError", params: { type: "InternalError", message: error.detail } }
      })
    }
  ).annotations(HttpApiSchema.annotations({ status: 500 }))
}

interface GenericBody {
  readonly detail: { readonly code: string; readonly params: { readonly type: string; readonly message: string } }
}

/** A vector search by record whose record has no vector of that name: `{"code": "missing_vector", …}`. */
export class MissingVector extends Schema.TaggedError<MissingVector>()("MissingVector", { message: Schema.String }) {
  static readonly http: Schema.Schema<MissingVector, { readonly code: "missing_vector"; readonly message: string }> = Schema
    .transform(
      Schema.Struct({ code: Schema.Literal("missing_vector"), message: Schema.String }),
      Schema.instanceOf(MissingVector),
      {
        strict: true,
        decode: ({ message }) => new MissingVector({ message }),
        encode: (error) => ({ code: "missing_vector" as const, message: error.message })
      }
    ).annotations(HttpApiSchema.annotations({ status: 422 }))
}

/** How the server decodes a request body (every endpoint's, and the bulk records' schema path). */
import { Either, ParseResult, Schema } from "effect"
import { innermost } from "./InnermostIssue.js"
import { laxAst } from "./Lax.js"

/**
 * `schema` as a request payload: decoded as declared first (the common case costs nothing more), then, if that
 * fails, by its lax reading; what still fails is reported through `innermost`. Encoding is the schema's own.
 */
export const laxPayload = <A, I>(schema: Schema.Schema<A, I>): Schema.Schema<A, unknown> => {
  const strict = ParseResult.decodeUnknownEither(schema)
  const relaxed = laxAst(schema.ast)
  const lax = relaxed === schema.ast ? strict : ParseResult.decodeUnknownEither(Schema.make<A, unknown, never>(relaxed))
  const encode = ParseResult.encodeUnknownEither(schema)
  return Schema.declare<A, unknown, readonly []>([], {
    decode: () => (input, options) => {
      const decoded = strict(input, options)
      if (Either.isRight(decoded)) return decoded
      const read = lax === strict ? decoded : lax(input, options)
      return Either.mapLeft(read, innermost)
    },
    encode: () => (input, options) => encode(input, options)
  }, schema.ast.annotations)
}

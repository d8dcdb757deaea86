/**
 * Request bodies are read the way Argilla's pydantic reads them in its default (lax) mode: an integer may come as
 * `2`, `2.0`, `true` or `" 2 "`, a number as `"2.5"`, a boolean as `1` or `"yes"` (pydantic's conversion table).
 * Strings are not made from numbers (pydantic v2 refuses that too). The declared schemas stay strict: the OpenAPI
 * document, the typed client and every response use them as they are; `laxAst` derives the lenient reading of a
 * payload schema for the server alone (see ServerApi.ts).
 */
import { Either, Option, ParseResult, Schema, SchemaAST as AST } from "effect"

/** pydantic's messages, by pydantic's error type, for what the lax readings refuse. */
export const laxMessages = {
  int_type: "Input should be a valid integer",
  int_parsing: "Input should be a valid integer, unable to parse string as an integer",
  int_from_float: "Input should be a valid integer, got a number with a fractional part",
  int_parsing_size: "Unable to parse input string as an integer, exceeded maximum size",
  finite_number: "Input should be a finite number",
  float_type: "Input should be a valid number",
  float_parsing: "Input should be a valid number, unable to parse string as a number",
  bool_type: "Input should be a valid boolean",
  bool_parsing: "Input should be a valid boolean, unable to interpret input"
} as const
export type LaxErrorType = keyof typeof laxMessages

const typeByMessage = new Map<string, string>(Object.entries(laxMessages).map(([type, message]) => [message, type]))
/** The pydantic error type of a message a lax reading gave, if it is one. */
export const laxErrorType = (message: string): string | undefined => typeByMessage.get(message)

type Read<A> = Either.Either<A, LaxErrorType>

// Digits with single underscores between them (Python's `int("1_000")`), optionally followed by `.0…`.
const INT_TEXT = /^[+-]?\d+(_\d+)*(\.0+)?$/
// What Rust's `f64::from_str` reads, finite values only; underscores as above.
const FLOAT_TEXT = /^[+-]?(\d+(_\d+)*\.?(\d+(_\d+)*)?|\.\d+(_\d+)*)([eE][+-]?\d+)?$/
const NON_FINITE_TEXT = /^[+-]?(inf|infinity|nan)$/i

/** pydantic's int in lax mode: ints, whole floats, booleans, and strings of an integer (trimmed). */
export const readInt = (input: unknown): Read<number> => {
  if (typeof input === "number") {
    if (!Number.isFinite(input)) return Either.left("finite_number")
    return Number.isInteger(input) ? Either.right(input) : Either.left("int_from_float")
  }
  if (typeof input === "boolean") return Either.right(input ? 1 : 0)
  if (typeof input !== "string") return Either.left("int_type")
  const text = input.trim()
  if (!INT_TEXT.test(text)) return Either.left("int_parsing")
  const value = Number(text.replaceAll("_", ""))
  return Number.isSafeInteger(value) ? Either.right(value + 0) : Either.left("int_parsing_size")
}

/** pydantic's float in lax mode: numbers, booleans, and numeric strings (trimmed); never NaN or infinity. */
export const readFloat = (input: unknown): Read<number> => {
  if (typeof input === "number") return Number.isFinite(input) ? Either.right(input) : Either.left("finite_number")
  if (typeof input === "boolean") return Either.right(input ? 1 : 0)
  if (typeof input !== "string") return Either.left("float_type")
  const text = input.trim()
  if (NON_FINITE_TEXT.test(text)) return Either.left("finite_number")
  if (!FLOAT_TEXT.test(text)) return Either.left("float_parsing")
  const value = Number(text.replaceAll("_", ""))
  return Number.isFinite(value) ? Either.right(value) : Either.left("finite_number")
}

const FALSE_TEXT = new Set(["0", "off", "f", "false", "n", "no"])
const TRUE_TEXT = new Set(["1", "on", "t", "true", "y", "yes"])

/** pydantic's bool in lax mode: booleans, 0 and 1, and the words of its table in any case (not trimmed). */
export const readBool = (input: unknown): Read<boolean> => {
  if (typeof input === "boolean") return Either.right(input)
  if (typeof input === "number") return input === 0 || input === 1 ? Either.right(input === 1) : Either.left("bool_parsing")
  if (typeof input !== "string") return Either.left("bool_type")
  const word = input.toLowerCase()
  if (FALSE_TEXT.has(word)) return Either.right(false)
  return TRUE_TEXT.has(word) ? Either.right(true) : Either.left("bool_parsing")
}

/** `to` read from anything through `read`; written back as it is. */
const reading = (to: AST.AST, read: (input: unknown) => Read<unknown>) =>
  new AST.Transformation(
    AST.unknownKeyword,
    to,
    new AST.FinalTransformation(
      (input, _, self) =>
        Either.mapLeft(read(input), (type) => new ParseResult.Type(self, input, laxMessages[type])),
      ParseResult.succeed
    )
  )

const isInt = (ast: AST.Refinement) =>
  ast.from._tag === "NumberKeyword" &&
  Option.contains(AST.getSchemaIdAnnotation(ast), Schema.IntSchemaId)

/**
 * The lax reading of a schema: numbers, integers and booleans read as above wherever the encoded side has them.
 * In a union every strict member is tried before any lax one, as pydantic's "smart" unions do, so `true` for
 * `string | number | boolean` stays `true`. Returns `ast` itself when nothing in it changes.
 */
export const laxAst = (ast: AST.AST, seen: Map<AST.AST, AST.AST> = new Map()): AST.AST => {
  const known = seen.get(ast)
  if (known !== undefined) return known
  const lax = rewrite(ast, seen)
  seen.set(ast, lax)
  return lax
}

const rewrite = (ast: AST.AST, seen: Map<AST.AST, AST.AST>): AST.AST => {
  switch (ast._tag) {
    case "NumberKeyword":
      return reading(ast, readFloat)
    case "BooleanKeyword":
      return reading(ast, readBool)
    case "Refinement": {
      const from = isInt(ast) ? reading(ast.from, readInt) : laxAst(ast.from, seen)
      return from === ast.from ? ast : new AST.Refinement(from, ast.filter, ast.annotations)
    }
    case "Transformation": {
      // Only what the client sends (the encoded side) is read leniently.
      const from = laxAst(ast.from, seen)
      return from === ast.from ? ast : new AST.Transformation(from, ast.to, ast.transformation, ast.annotations)
    }
    case "TypeLiteral": {
      const properties = ast.propertySignatures.map((p) => {
        const type = laxAst(p.type, seen)
        return type === p.type ? p : new AST.PropertySignature(p.name, type, p.isOptional, p.isReadonly, p.annotations)
      })
      const indexes = ast.indexSignatures.map((i) => {
        const type = laxAst(i.type, seen)
        return type === i.type ? i : new AST.IndexSignature(i.parameter, type, i.isReadonly)
      })
      const same = properties.every((p, n) => p === ast.propertySignatures[n]) &&
        indexes.every((i, n) => i === ast.indexSignatures[n])
      return same ? ast : new AST.TypeLiteral(properties, indexes, ast.annotations)
    }
    case "TupleType": {
      const elements = ast.elements.map((e) => {
        const type = laxAst(e.type, seen)
        return type === e.type ? e : new AST.OptionalType(type, e.isOptional, e.annotations)
      })
      const rest = ast.rest.map((r) => {
        const type = laxAst(r.type, seen)
        return type === r.type ? r : new AST.Type(type, r.annotations)
      })
      const same = elements.every((e, n) => e === ast.elements[n]) && rest.every((r, n) => r === ast.rest[n])
      return same ? ast : new AST.TupleType(elements, rest, ast.isReadonly, ast.annotations)
    }
    case "Union": {
      const relaxed = ast.types.map((member) => laxAst(member, seen)).filter((lax, n) => lax !== ast.types[n])
      return relaxed.length === 0 ? ast : AST.Union.make([...ast.types, ...relaxed], ast.annotations)
    }
    case "Suspend":
      return new AST.Suspend(() => laxAst(ast.f(), seen), ast.annotations)
    default:
      return ast
  }
}

/**
 * The lax readings follow pydantic v2's conversion table (lax mode) for int, float and bool; payloads try the
 * declared schema first; the declared schemas, and so responses, the OpenAPI document and the client, stay strict.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, Option, ParseResult, Schema } from "effect"
import { Dataset, DatasetUpdate } from "../../src/domain/Dataset.js"
import { SearchRecordsQuery } from "../../src/domain/Search.js"
import { UserCreate } from "../../src/domain/User.js"
import { WorkspaceCreate } from "../../src/domain/Workspace.js"
import { Api } from "../../src/contract/Api.js"
import { laxAst, readBool, readFloat, readInt } from "../../src/http/Lax.js"
import { laxPayload } from "../../src/http/LaxPayload.js"
import { ServerApi } from "../../src/http/ServerApi.js"

const accepts = <A>(read: (input: unknown) => Either.Either<A, string>, input: unknown, expected: A) =>
  expect(read(input), JSON.stringify(input)).toEqual(Either.right(expected))
const refuses = (read: (input: unknown) => Either.Either<unknown, string>, input: unknown, type: string) =>
  expect(read(input), JSON.stringify(input)).toEqual(Either.left(type))

describe("lax readings (pydantic's conversion table)", () => {
  it("int: ints, whole floats, booleans and integer strings", () => {
    const table: ReadonlyArray<[unknown, number]> = [
      [2, 2], [-7, -7], [2.0, 2], [true, 1], [false, 0],
      ["2", 2], [" 2 ", 2], ["\t42\n", 42], ["+0", 0], ["-1", -1], ["042", 42], ["00", 0], ["-00042_000", -42000],
      ["4_2", 42], ["42.0", 42], ["42.00", 42], ["-1.0", -1], ["0.0", 0], ["  04_2.0 ", 42], ["123456789.0", 123456789]
    ]
    for (const [input, expected] of table) accepts(readInt, input, expected)
  })

  it("int: refusals, with pydantic's error types", () => {
    const table: ReadonlyArray<[unknown, string]> = [
      [2.5, "int_from_float"], [Number.NaN, "finite_number"], [Number.POSITIVE_INFINITY, "finite_number"],
      ["2.5", "int_parsing"], ["abc", "int_parsing"], ["", "int_parsing"], [" ", "int_parsing"], ["1.", "int_parsing"],
      ["42.", "int_parsing"], ["1e3", "int_parsing"], ["0x10", "int_parsing"], ["++4_2", "int_parsing"],
      ["-+1", "int_parsing"], ["42_", "int_parsing"], ["_42", "int_parsing"], ["4__2", "int_parsing"],
      ["42_.0", "int_parsing"], ["123456789123456.00001", "int_parsing"], ["true", "int_parsing"],
      ["9".repeat(30), "int_parsing_size"],
      [null, "int_type"], [[1], "int_type"], [{}, "int_type"]
    ]
    for (const [input, type] of table) refuses(readInt, input, type)
  })

  it("float: numbers, booleans and numeric strings; never NaN or infinity", () => {
    const table: ReadonlyArray<[unknown, number]> = [
      [1.5, 1.5], [3, 3], [true, 1], [false, 0], ["2.5", 2.5], [" 2.5 ", 2.5], ["1_0.5", 10.5], ["1e2", 100],
      ["-.5", -0.5], ["5.", 5], ["+3", 3]
    ]
    for (const [input, expected] of table) accepts(readFloat, input, expected)
    const refused: ReadonlyArray<[unknown, string]> = [
      ["x", "float_parsing"], ["", "float_parsing"], ["1,5", "float_parsing"], ["inf", "finite_number"],
      ["NaN", "finite_number"], ["1e999", "finite_number"], [null, "float_type"], [[1.5], "float_type"]
    ]
    for (const [input, type] of refused) refuses(readFloat, input, type)
  })

  it("bool: booleans, 0 and 1, and pydantic's words in any case", () => {
    const truthy = [true, 1, 1.0, "1", "true", "True", "TRUE", "t", "T", "yes", "Y", "y", "on", "ON"]
    const falsy = [false, 0, "0", "false", "False", "f", "no", "N", "n", "off", "OFF"]
    for (const input of truthy) accepts(readBool, input, true)
    for (const input of falsy) accepts(readBool, input, false)
    const refused: ReadonlyArray<[unknown, string]> = [
      [2, "bool_parsing"], [0.5, "bool_parsing"], ["maybe", "bool_parsing"], [" true", "bool_parsing"],
      ["", "bool_parsing"], [null, "bool_type"], [[true], "bool_type"]
    ]
    for (const [input, type] of refused) refuses(readBool, input, type)
  })
})

const decodeLax = <A, I>(schema: Schema.Schema<A, I>) => Schema.decodeUnknownEither(laxPayload(schema))
const issuesOf = <A>(result: Either.Either<A, ParseResult.ParseError>) =>
  Either.isLeft(result) ? ParseResult.ArrayFormatter.formatErrorSync(result.left) : []

/** The payload schema of `PATCH /datasets/{id}` in `api`. */
const updatePayload = (api: typeof Api) => {
  const endpoints = Object.values(api.groups).flatMap((group) => Object.values(group.endpoints))
  const update = endpoints.find((endpoint) => endpoint.method === "PATCH" && endpoint.path === "/api/v1/datasets/:id")
  const payload: Option.Option<Schema.Schema.AnyNoContext> = update!.payloadSchema
  return Schema.make<unknown, unknown, never>(Option.getOrThrow(payload).ast)
}

describe("lax payloads", () => {
  it("read the string \"2\" as min_submitted 2; the declared schemas (responses, client) still refuse it", () => {
    const body = { distribution: { strategy: "overlap", min_submitted: "2" } }
    expect(decodeLax(DatasetUpdate)(body)).toEqual(Either.right({ distribution: { strategy: "overlap", min_submitted: 2 } }))
    expect(Either.isLeft(Schema.decodeUnknownEither(DatasetUpdate)(body))).toBe(true)
    expect(Either.isLeft(Schema.decodeUnknownEither(Dataset.fields.distribution)(body.distribution))).toBe(true)
    const declared = updatePayload(Api)
    const served = updatePayload(ServerApi)
    expect(Either.isLeft(Schema.decodeUnknownEither(declared)(body))).toBe(true)
    expect(Either.isRight(Schema.decodeUnknownEither(served)(body))).toBe(true)
  })

  it("try every strict member of a union before a lax one, as pydantic's smart unions do", () => {
    const terms = (values: ReadonlyArray<unknown>) => ({
      filters: { and: [{ type: "terms", scope: { entity: "metadata", metadata_property: "m" }, values }] }
    })
    const decoded = decodeLax(SearchRecordsQuery)(terms([true, "2", 3, "yes"]))
    expect(Either.map(decoded, (query) => query.filters?.and[0])).toEqual(
      Either.right({ type: "terms", scope: { entity: "metadata", metadata_property: "m" }, values: [true, "2", 3, "yes"] })
    )
  })

  it("report a failure inside an optional or nullable value once, with the inner message", () => {
    const issues = issuesOf(decodeLax(DatasetUpdate)({ distribution: { strategy: "overlap", min_submitted: "x" } }))
    expect(issues).toEqual([{
      _tag: "Transformation",
      path: ["distribution", "min_submitted"],
      message: "Input should be a valid integer, unable to parse string as an integer"
    }])
    const user = issuesOf(decodeLax(UserCreate)({ first_name: "a", last_name: 5, username: "u", password: "12345678" }))
    expect(user).toEqual([{ _tag: "Type", path: ["last_name"], message: "Expected string, actual 5" }])
  })

  it("leave schemas without numbers or booleans as they are", () => {
    expect(laxAst(WorkspaceCreate.ast)).toBe(WorkspaceCreate.ast)
    expect(laxAst(DatasetUpdate.ast)).not.toBe(DatasetUpdate.ast)
  })
})

import { describe, it } from "@effect/vitest"
import type { FieldSpec } from "../../../src/services/records/validation/context.js"
import { validateRecordFields } from "../../../src/services/records/validation/fields.js"
import { context, expectInvalid, expectValid } from "./fixtures.js"

const fields: ReadonlyArray<FieldSpec> = [
  { name: "text", required: true, settings: { type: "text", use_markdown: false } },
  { name: "picture", required: false, settings: { type: "image" } },
  { name: "chat", required: false, settings: { type: "chat", use_markdown: true } },
  { name: "custom", required: false, settings: { type: "custom", template: "<p>{{record.fields.custom}}</p>", advanced_mode: false } }
]
const ctx = context({ fields })
const create = (values: Readonly<Record<string, unknown>>) => validateRecordFields(ctx, values, "create")
const update = (values: Readonly<Record<string, unknown>>) => validateRecordFields(ctx, values, "update")

describe("validateRecordFields: presence", () => {
  it("accepts the required field with optional fields left out or null", () => {
    expectValid(create({ text: "hello" }))
    expectValid(create({ text: "hello", picture: null, chat: null, custom: null }))
  })
  it("refuses an empty fields object on create", () => expectInvalid(create({}), "fields cannot be empty"))
  it("refuses a missing required field on create", () => expectInvalid(create({ picture: null }), "'text'"))
  it("refuses a required field set to null on create", () => expectInvalid(create({ text: null }), "'text'"))
  it("refuses unknown field names, naming them", () =>
    expectInvalid(create({ text: "hi", title: "x", body: "y" }), "non configured fields", "'title'", "'body'"))
  it("on update, allows leaving out required fields and an empty object", () => {
    expectValid(update({}))
    expectValid(update({ picture: "https://example.com/a.png" }))
  })
  it("on update, refuses setting a required field to null", () => expectInvalid(update({ text: null }), "'text'"))
  it("on update, still refuses unknown field names", () => expectInvalid(update({ nope: "x" }), "'nope'"))
  it("does not mistake inherited object members for given values (a field named `constructor`)", () => {
    const withConstructor = context({ fields: [{ name: "constructor", required: true, settings: { type: "text", use_markdown: false } }] })
    expectInvalid(validateRecordFields(withConstructor, { other: null }, "create"), "'constructor'")
  })
})

describe("validateRecordFields: text and custom", () => {
  it("refuses a non-string text value", () => expectInvalid(create({ text: 42 }), "'text'", "42"))
  it("accepts a JSON object for a custom field", () => expectValid(create({ text: "x", custom: { a: [1, 2] } })))
  it("refuses an array, a string or a number for a custom field", () => {
    expectInvalid(create({ text: "x", custom: [1] }), "'custom'", "dictionary")
    expectInvalid(create({ text: "x", custom: "{}" }), "'custom'")
    expectInvalid(create({ text: "x", custom: 1 }), "'custom'")
  })
})

describe("validateRecordFields: image", () => {
  const image = (picture: unknown) => create({ text: "x", picture })
  it("accepts http and https URLs with a host and a path", () => {
    expectValid(image("https://example.com/cat.png"))
    expectValid(image("http://example.com/"))
    expectValid(image("HTTPS://example.com/a?b=c#d"))
  })
  it("refuses a URL without a path", () => {
    expectInvalid(image("https://example.com"), "'picture'", "invalid URL")
    expectInvalid(image("https://example.com?x=1"), "'picture'")
  })
  it("refuses a URL without a host", () => expectInvalid(image("http:///cat.png"), "'picture'"))
  it("refuses other schemes and non-URLs", () => {
    expectInvalid(image("ftp://example.com/cat.png"), "'picture'", "ftp://example.com/cat.png")
    expectInvalid(image("example.com/cat.png"), "'picture'")
    expectInvalid(image(123), "'picture'", "123")
  })
  it("accepts a web URL of 2038 characters and refuses one of 2039", () => {
    const base = "https://example.com/"
    expectValid(image(base + "a".repeat(2038 - base.length)))
    expectInvalid(image(base + "a".repeat(2039 - base.length)), "'picture'", "2038")
  })
  it("accepts data URLs of every allowed image MIME type", () => {
    for (const mime of ["avif", "gif", "ico", "jpeg", "jpg", "png", "svg", "svg+xml", "webp"]) {
      expectValid(image(`data:image/${mime};base64,AAAA`))
    }
    expectValid(image("data:image/png,rawbytes"))
    expectValid(image("data:IMAGE/PNG;base64,AAAA"))
  })
  it("refuses data URLs of other MIME types, naming the type", () => {
    expectInvalid(image("data:text/html;base64,PGgxPg=="), "'picture'", "'text/html'")
    expectInvalid(image("data:application/pdf;base64,AAAA"), "'application/pdf'")
    expectInvalid(image("data:image/bmp;base64,AAAA"), "'image/bmp'")
    // No media type means text/plain, as in RFC 2397.
    expectInvalid(image("data:;base64,AAAA"), "'text/plain'")
  })
  it("refuses a data URL without data", () => expectInvalid(image("data:image/png;base64"), "'picture'", "invalid URL"))
  it("accepts a data URL of 5 000 000 characters and refuses one longer", () => {
    const head = "data:image/png;base64,"
    expectValid(image(head + "A".repeat(5_000_000 - head.length)))
    expectInvalid(image(head + "A".repeat(5_000_001 - head.length)), "'picture'", "5000000")
  })
})

describe("validateRecordFields: chat", () => {
  const chat = (value: unknown) => create({ text: "x", chat: value })
  const message = (role: string, content: string) => ({ role, content })
  it("accepts a conversation", () => expectValid(chat([message("user", "hi"), message("assistant", "hello")])))
  it("accepts an empty list and 500 messages, refuses 501", () => {
    expectValid(chat([]))
    expectValid(chat(Array.from({ length: 500 }, () => message("user", "hi"))))
    expectInvalid(chat(Array.from({ length: 501 }, () => message("user", "hi"))), "'chat'", "500")
  })
  it("refuses a value that is not a list of messages", () => {
    expectInvalid(chat("hello"), "'chat'", "list of messages")
    expectInvalid(chat([{ role: "user" }]), "'chat'", "content")
    expectInvalid(chat(["hi"]), "'chat'", "'hi'")
  })
  it("refuses a role with whitespace", () => {
    expectInvalid(chat([message("the user", "hi")]), "'chat'", "'the user'", "whitespace")
    expectInvalid(chat([message("user\n", "hi")]), "whitespace")
  })
  it("accepts a 20-character role and refuses a 21-character one (default limits)", () => {
    expectValid(chat([message("r".repeat(20), "hi")]))
    expectInvalid(chat([message("r".repeat(21), "hi")]), "'chat'", "r".repeat(21), "found 21")
  })
  it("counts role length in code points", () => expectValid(chat([message("🤖".repeat(20), "hi")])))
  it("refuses an empty role and an empty content (minimum 1)", () => {
    expectInvalid(chat([message("", "hi")]), "'chat'", "role")
    expectInvalid(chat([message("user", "")]), "'chat'", "content", "found 0")
  })
  it("applies the configured content bounds", () => {
    const tight = context({ fields, limits: { minMessageLength: 2, maxMessageLength: 5, minRoleLength: 1, maxRoleLength: 20 } })
    const check = (content: string) => validateRecordFields(tight, { text: "x", chat: [message("user", content)] }, "create")
    expectInvalid(check("a"), "found 1")
    expectValid(check("ab"))
    expectValid(check("abcde"))
    expectInvalid(check("abcdef"), "found 6")
  })
})

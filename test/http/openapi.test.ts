/**
 * The served OpenAPI document is usable by standard tools (validators, Schemathesis, code generators): it is a
 * valid OpenAPI document, every `$ref` points inside it, and no schema is Effect's unresolvable placeholder
 * `{"$id": "/schemas/unknown"}` (what `Schema.Unknown` becomes without a `jsonSchema` annotation).
 */
import { validate } from "@readme/openapi-parser"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { raw, TestServerLive } from "../support/server.js"

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

/** Every object in `value` with its JSON pointer. */
const objectsOf = function*(value: Json, pointer = "#"): Generator<[string, { readonly [key: string]: Json }]> {
  if (value === null || typeof value !== "object") return
  if (Array.isArray(value)) {
    for (const [index, item] of (value as ReadonlyArray<Json>).entries()) yield* objectsOf(item, `${pointer}/${index}`)
    return
  }
  const object = value as { readonly [key: string]: Json }
  yield [pointer, object]
  for (const [key, item] of Object.entries(object)) {
    yield* objectsOf(item, `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`)
  }
}

/** The value a local reference (`#/components/schemas/X`) points at, or undefined. */
const resolve = (document: Json, ref: string): Json | undefined => {
  if (!ref.startsWith("#/")) return undefined
  let current: Json | undefined = document
  for (const token of ref.slice(2).split("/")) {
    const key = decodeURIComponent(token).replace(/~1/g, "/").replace(/~0/g, "~")
    if (current === null || typeof current !== "object" || Array.isArray(current)) return undefined
    current = (current as { readonly [key: string]: Json })[key]
  }
  return current
}

layer(TestServerLive("sqlite"), { excludeTestServices: true })("the OpenAPI document", (it) => {
  it.effect("has no unresolvable placeholder schemas, only references that resolve, and validates as OpenAPI", () =>
    Effect.gen(function*() {
      const response = yield* raw("/api/v1/openapi.json")
      expect(response.status).toBe(200)
      const document = response.body as Json
      const placeholders: Array<string> = []
      const dangling: Array<string> = []
      for (const [pointer, object] of objectsOf(document)) {
        if (typeof object.$id === "string" && object.$id.startsWith("/schemas/")) placeholders.push(`${pointer}: ${object.$id}`)
        if (typeof object.$ref === "string" && resolve(document, object.$ref) === undefined) dangling.push(`${pointer}: ${object.$ref}`)
      }
      expect(placeholders).toEqual([])
      expect(dangling).toEqual([])
      // The validator dereferences what it is given: it gets a copy.
      const result = yield* Effect.promise(() => validate(structuredClone(response.body) as Parameters<typeof validate>[0]))
      expect(result.valid ? [] : result.errors).toEqual([])
      expect(result.warnings).toEqual([])
    }))
})

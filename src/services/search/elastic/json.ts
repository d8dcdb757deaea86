/** The request bodies this folder builds: plain JSON, so golden tests can compare them as values. */
export type Json = string | number | boolean | null | ReadonlyArray<Json> | JsonObject

export interface JsonObject {
  readonly [key: string]: Json
}

/** Which engine a body is for: they share the query DSL and differ in vectors (mapping and search). */
export type Flavor = "elasticsearch" | "opensearch"

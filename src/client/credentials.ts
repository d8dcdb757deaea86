/**
 * The stored credentials, in the layout of Argilla's v1 credential store: `$GLOSS_CACHE_DIR/credentials.json`, default
 * `~/.cache/gloss/credentials.json`, JSON with `api_url`, `api_key`, `workspace`, `extra_headers`. `gloss login`
 * writes it (mode 0600: it holds a key), `gloss logout` removes it, `fromCredentials` reads it.
 */
import { FileSystem } from "@effect/platform"
import * as os from "node:os"
import * as path from "node:path"
import { Effect, Option, Schema } from "effect"
import { CredentialsFileError } from "./Errors.js"
import { type ClientOptions, envString } from "./Options.js"

export const StoredCredentials = Schema.Struct({
  api_url: Schema.String,
  api_key: Schema.String,
  workspace: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  extra_headers: Schema.optionalWith(Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.String })), {
    default: () => null
  })
})
export type StoredCredentials = typeof StoredCredentials.Type

const CredentialsJson = Schema.parseJson(StoredCredentials)

export const credentialsPath: Effect.Effect<string> = Effect.map(
  envString("GLOSS_CACHE_DIR"),
  (dir) => path.join(Option.getOrElse(dir, () => path.join(os.homedir(), ".cache", "gloss")), "credentials.json")
)

const fileError = (file: string) => (error: { readonly message: string }) =>
  new CredentialsFileError({ path: file, detail: error.message })

/** The stored credentials, or `None` when there is no file. */
export const readCredentials = Effect.gen(function*() {
  const fs = yield* FileSystem.FileSystem
  const file = yield* credentialsPath
  if (!(yield* Effect.mapError(fs.exists(file), fileError(file)))) return Option.none<StoredCredentials>()
  const text = yield* Effect.mapError(fs.readFileString(file), fileError(file))
  return Option.some(yield* Schema.decode(CredentialsJson)(text).pipe(Effect.mapError(fileError(file))))
}).pipe(Effect.withSpan("GlossClient.readCredentials"))

/** Writes the file readable by its owner only; returns its path. */
export const writeCredentials = Effect.fn("GlossClient.writeCredentials")(function*(credentials: StoredCredentials) {
  const fs = yield* FileSystem.FileSystem
  const file = yield* credentialsPath
  const write = Effect.gen(function*() {
    yield* fs.makeDirectory(path.dirname(file), { recursive: true })
    yield* fs.writeFileString(file, JSON.stringify(yield* Schema.encode(StoredCredentials)(credentials)), { mode: 0o600 })
    // `mode` applies only when the file is created: an older file keeps its permissions otherwise.
    yield* fs.chmod(file, 0o600)
  })
  yield* Effect.mapError(write, fileError(file))
  return file
})

/** Removes the file; `false` when there was none. */
export const removeCredentials = Effect.gen(function*() {
  const fs = yield* FileSystem.FileSystem
  const file = yield* credentialsPath
  if (!(yield* Effect.mapError(fs.exists(file), fileError(file)))) return false
  yield* Effect.mapError(fs.remove(file), fileError(file))
  return true
}).pipe(Effect.withSpan("GlossClient.removeCredentials"))

export interface CredentialsOptions extends ClientOptions {
  /** Set on every request after `headers` (the API-key header still wins). */
  readonly extraHeaders?: Readonly<Record<string, string>> | undefined
}

const given = (value: string | undefined) => Option.filter(Option.fromNullable(value), (text) => text.trim() !== "")

/**
 * The order of `fromCredentials`: the argument, then `GLOSS_API_URL` / `GLOSS_API_KEY` / `GLOSS_WORKSPACE`, then — only
 * while the URL or the key is still missing — the stored file, for the values still missing.
 */
export const resolveCredentials = Effect.fn("GlossClient.resolveCredentials")(function*(options: CredentialsOptions) {
  const orEnv = (value: string | undefined, name: string) =>
    Option.isSome(given(value)) ? Effect.succeed(given(value)) : envString(name)
  let apiUrl = yield* orEnv(options.apiUrl, "GLOSS_API_URL")
  let apiKey = yield* orEnv(options.apiKey, "GLOSS_API_KEY")
  let workspace = yield* orEnv(options.workspace, "GLOSS_WORKSPACE")
  let extraHeaders = Option.fromNullable(options.extraHeaders)
  if (Option.isNone(apiUrl) || Option.isNone(apiKey)) {
    const stored = yield* readCredentials
    if (Option.isSome(stored)) {
      const file = stored.value
      apiUrl = Option.orElse(apiUrl, () => Option.some(file.api_url))
      apiKey = Option.orElse(apiKey, () => Option.some(file.api_key))
      workspace = Option.orElse(workspace, () => Option.fromNullable(file.workspace))
      extraHeaders = Option.orElse(extraHeaders, () => Option.fromNullable(file.extra_headers))
    }
  }
  const { extraHeaders: _, ...rest } = options
  const resolved: ClientOptions = {
    ...rest,
    apiUrl: Option.getOrUndefined(apiUrl),
    apiKey: Option.getOrUndefined(apiKey),
    workspace: Option.getOrUndefined(workspace),
    headers: { ...options.headers, ...Option.getOrUndefined(extraHeaders) }
  }
  return resolved
})

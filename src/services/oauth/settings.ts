/**
 * The OAuth2 configuration file, in Argilla's format: YAML with `providers`, `allowed_workspaces` and
 * `allow_http_redirect`. OAuth is on exactly when the file exists. A file that exists but is wrong stops start-up
 * with a message naming the file and the problem, instead of a sign-in button that fails later.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { Data, Effect, Option, ParseResult, Redacted, Schema } from "effect"
import { parse as parseYaml } from "yaml"
import { GlossConfig } from "../../Config.js"
import { type ProviderDefinition, type ProviderEndpoints, PROVIDERS } from "./providers.js"

export class OAuthConfigError extends Data.TaggedError("OAuthConfigError")<{ readonly message: string }> {}

const Text = Schema.String.pipe(Schema.minLength(1))

const ProviderEntry = Schema.Struct({
  name: Text,
  client_id: Schema.optional(Schema.NullOr(Text)),
  client_secret: Schema.optional(Schema.NullOr(Text)),
  scope: Schema.optional(Schema.NullOr(Text)),
  redirect_uri: Schema.optional(Schema.NullOr(Text))
})

const OAuthFile = Schema.Struct({
  providers: Schema.optionalWith(Schema.Array(ProviderEntry), { default: () => [], nullable: true }),
  allowed_workspaces: Schema.optionalWith(Schema.Array(Schema.Struct({ name: Text })), { default: () => [], nullable: true }),
  allow_http_redirect: Schema.optionalWith(Schema.Boolean, { default: () => false, nullable: true })
})

/** A provider ready to use: its endpoints and this server's client credentials with it. */
export interface ConfiguredProvider {
  readonly name: string
  readonly definition: ProviderDefinition
  readonly endpoints: ProviderEndpoints
  readonly clientId: string
  readonly clientSecret: Option.Option<Redacted.Redacted<string>>
  readonly scope: string
  /** Where the provider sends the browser back; by default the UI's `/oauth/<provider>/callback` on this server. */
  readonly redirectUri: Option.Option<string>
}

export interface OAuthSettings {
  /** The file read, when OAuth is on. */
  readonly file: Option.Option<string>
  readonly providers: ReadonlyMap<string, ConfiguredProvider>
  /** Workspaces every user created by an OAuth sign-in joins (created at start when missing). */
  readonly allowedWorkspaces: ReadonlyArray<string>
  /** Off (the default): the redirect URI is always https, as a server behind a TLS proxy needs. */
  readonly allowHttpRedirect: boolean
}

export const OAUTH_DISABLED: OAuthSettings = {
  file: Option.none(),
  providers: new Map(),
  allowedWorkspaces: [],
  allowHttpRedirect: false
}

/** The configured path, or the first of `.oauth.yml` / `.oauth.yaml` in the working directory that exists. */
const locate = (configured: Option.Option<string>): Option.Option<string> =>
  Option.match(configured, {
    onSome: (file) => fs.existsSync(file) ? Option.some(file) : Option.none(),
    onNone: () => Option.fromNullable([".oauth.yml", ".oauth.yaml"].find((file) => fs.existsSync(file)))
  })

export const loadOAuthSettings: Effect.Effect<OAuthSettings, OAuthConfigError, GlossConfig> = Effect.gen(function*() {
  const config = yield* GlossConfig
  const { auth } = config
  const found = locate(auth.oauthConfigPath)
  if (Option.isNone(found)) {
    if (Option.isSome(auth.oauthConfigPath)) {
      yield* Effect.logWarning(`GLOSS_AUTH_OAUTH_CFG names ${auth.oauthConfigPath.value}, which does not exist: OAuth sign-in is off`)
    }
    return OAUTH_DISABLED
  }
  const file = path.resolve(found.value)
  const fail = (problem: string) => new OAuthConfigError({ message: `the OAuth configuration ${file} ${problem}` })

  const text = yield* Effect.try({ try: () => fs.readFileSync(file, "utf8"), catch: (e) => fail(`cannot be read: ${String(e)}`) })
  const document = yield* Effect.try({
    try: () => parseYaml(text) as unknown,
    catch: (e) => fail(`is not valid YAML: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`)
  })
  const parsed = yield* Schema.decodeUnknown(OAuthFile)(document ?? {}).pipe(
    Effect.mapError((e) => fail(`is invalid: ${ParseResult.TreeFormatter.formatErrorSync(e).replace(/\s+/g, " ")}`))
  )

  const providers = new Map<string, ConfiguredProvider>()
  for (const entry of parsed.providers) {
    const definition = PROVIDERS[entry.name]
    if (definition === undefined) {
      return yield* fail(`names the provider '${entry.name}'; Gloss supports: ${Object.keys(PROVIDERS).join(", ")}`)
    }
    const fromEnv = definition.credentials(auth)
    const endpoints = definition.endpoints(config)
    const clientId = Option.orElse(Option.fromNullable(entry.client_id), () => fromEnv.clientId)
    if (Option.isNone(clientId)) {
      return yield* fail(`gives provider '${entry.name}' no client id: set client_id there or ${definition.clientIdVariable}`)
    }
    providers.set(entry.name, {
      name: entry.name,
      definition,
      endpoints,
      clientId: clientId.value,
      clientSecret: Option.orElse(Option.map(Option.fromNullable(entry.client_secret), Redacted.make), () => fromEnv.clientSecret),
      scope: Option.getOrElse(Option.orElse(Option.fromNullable(entry.scope), () => fromEnv.scope), () => definition.defaultScope),
      redirectUri: Option.fromNullable(entry.redirect_uri)
    })
  }
  const settings: OAuthSettings = {
    file: Option.some(file),
    providers,
    allowedWorkspaces: [...new Set(parsed.allowed_workspaces.map((w) => w.name))],
    allowHttpRedirect: parsed.allow_http_redirect
  }
  yield* Effect.logInfo(`OAuth sign-in with ${[...providers.keys()].join(", ") || "no provider"} (${file})`)
  return settings
})

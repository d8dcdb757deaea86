/**
 * The OAuth2 providers Gloss signs users in with. Each says where its endpoints are, where its client credentials
 * come from when the configuration file has none, and how its profile becomes a Gloss user.
 */
import { Option, type Redacted } from "effect"
import type { GlossConfigShape } from "../../Config.js"
import type { Role } from "../../domain/User.js"

export interface ProviderEndpoints {
  readonly authorize: string
  readonly token: string
  readonly userinfo: string
}

/** Who signed in, as the provider describes them. */
export interface Profile {
  readonly username: string
  readonly firstName: string
  /** Set when this provider decides the role (a Space's owner); otherwise new users are annotators. */
  readonly role: Option.Option<Role>
}

export interface ProviderDefinition {
  readonly defaultScope: string
  readonly clientIdVariable: string
  readonly endpoints: (config: GlossConfigShape) => ProviderEndpoints
  readonly credentials: (auth: GlossConfigShape["auth"]) => {
    readonly clientId: Option.Option<string>
    readonly clientSecret: Option.Option<Redacted.Redacted<string>>
    readonly scope: Option.Option<string>
  }
  /** `None` when the profile has no usable username. */
  readonly profile: (userinfo: Readonly<Record<string, unknown>>, config: GlossConfigShape) => Option.Option<Profile>
}

const text = (value: unknown): Option.Option<string> =>
  typeof value === "string" && value.trim() !== "" ? Option.some(value.trim()) : Option.none()

/**
 * Hugging Face (OpenID Connect at `$HF_ENDPOINT/oauth/*`): username from `preferred_username`, first name from
 * `name`. The owner of a Space signs in as `owner`: the user named by `USERNAME` (which the owner bootstrap may
 * also have created with a password), or, when `USERNAME` is unset, the Space's author (`SPACE_AUTHOR_NAME`,
 * a personal Space). Everyone else starts as an annotator.
 */
const huggingface: ProviderDefinition = {
  defaultScope: "openid profile",
  clientIdVariable: "OAUTH2_HUGGINGFACE_CLIENT_ID",
  endpoints: ({ hub }) => ({
    authorize: `${hub.endpoint}/oauth/authorize`,
    token: `${hub.endpoint}/oauth/token`,
    userinfo: `${hub.endpoint}/oauth/userinfo`
  }),
  credentials: ({ huggingface: env }) => ({
    clientId: Option.orElse(env.clientId, () => env.spaceClientId),
    clientSecret: Option.orElse(env.clientSecret, () => env.spaceClientSecret),
    scope: Option.orElse(env.scope, () => env.spaceScopes)
  }),
  profile: (userinfo, { owner, space }) =>
    Option.map(text(userinfo.preferred_username), (username): Profile => {
      const spaceOwner = Option.isSome(owner.username)
        ? owner.username
        : Option.flatMap(space, (s) => s.authorName)
      return {
        username,
        firstName: Option.getOrElse(text(userinfo.name), () => username),
        role: Option.exists(spaceOwner, (name) => name === username) ? Option.some("owner") : Option.none()
      }
    })
}

export const PROVIDERS: Readonly<Record<string, ProviderDefinition>> = { huggingface }

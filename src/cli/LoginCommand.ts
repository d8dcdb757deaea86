/**
 * `gloss login` and `gloss logout`, as Argilla's v1 CLI had them: store the credentials `Client.fromCredentials` reads,
 * after checking them with `GET /api/v1/me`, and remove them. A failure is one line, as for every command.
 */
import { Command, Options } from "@effect/cli"
import { Console, Effect, Option, Redacted, Schema } from "effect"
import { credentialsPath, readCredentials, removeCredentials, writeCredentials } from "../client/credentials.js"
import { GlossClient } from "../client/GlossClient.js"

/** Why login or logout did not happen, worded for the person at the terminal. */
export class LoginFailed extends Schema.TaggedError<LoginFailed>()("LoginFailed", { reason: Schema.String }) {
  override get message() {
    return this.reason
  }
}

const apiUrl = Options.text("api-url").pipe(
  Options.withDescription("URL of the Gloss server, e.g. http://localhost:6900 (with its base path, if any)")
)
const apiKey = Options.redacted("api-key").pipe(Options.withDescription("Your API key on that server"))
const workspace = Options.text("workspace").pipe(
  Options.optional,
  Options.withDescription("Workspace that dataset lookups use by default")
)
const extraHeaders = Options.text("extra-headers").pipe(
  Options.optional,
  Options.withDescription(`Headers sent with every request, as a JSON object: '{"Authorization": "Bearer …"}'`)
)

const HeadersJson = Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.String }))

const parseHeaders = (json: Option.Option<string>) =>
  Option.match(json, {
    onNone: () => Effect.succeed(undefined),
    onSome: (text) =>
      Schema.decode(HeadersJson)(text).pipe(
        Effect.mapError(() =>
          new LoginFailed({
            reason: "The provided extra headers are not a valid JSON object of header names to string values."
          })
        )
      )
  })

/** What went wrong when checking the credentials, as the SDK's login words it. */
const loginFailure = (url: string) => (error: { readonly _tag: string; readonly message: string }) => {
  switch (error._tag) {
    case "Unauthorized":
      return new LoginFailed({ reason: `Could not login to '${url}' using the provided credentials.` })
    case "ConnectionFailed":
    case "RequestTimeout":
      return new LoginFailed({
        reason: `Could not reach '${url}', make sure that the Gloss server is running and working as expected.`
      })
    case "UnexpectedResponse":
      return new LoginFailed({
        reason: `Could not login to '${url}': it did not answer as a Gloss server (${error.message}). ` +
          "Check the API URL, its protocol (http or https) and its base path."
      })
    default:
      return new LoginFailed({ reason: `Could not login to '${url}': ${error.message}` })
  }
}

export const loginCommand = Command.make("login", { apiUrl, apiKey, workspace, extraHeaders }, (args) =>
  Effect.gen(function*() {
    const headers = yield* parseHeaders(args.extraHeaders)
    const key = Redacted.value(args.apiKey)
    const user = yield* Effect.scoped(
      Effect.flatMap(GlossClient.make({ apiUrl: args.apiUrl, apiKey: key, headers }), (client) => client.me)
    ).pipe(Effect.mapError(loginFailure(args.apiUrl)))
    const file = yield* writeCredentials({
      api_url: args.apiUrl,
      api_key: key,
      workspace: Option.getOrNull(args.workspace),
      extra_headers: headers ?? null
    })
    yield* Console.log(`Logged in successfully to '${args.apiUrl}' as ${user.username} (credentials saved in ${file}).`)
  })).pipe(
    Command.withDescription(
      "Check the API URL and key with the server, then save them (with the workspace and extra headers) in " +
        "$GLOSS_CACHE_DIR/credentials.json (default ~/.cache/gloss/credentials.json, readable by you only), " +
        "where Client.fromCredentials finds them."
    )
  )

export const logoutCommand = Command.make("logout", {}, () =>
  Effect.gen(function*() {
    // Only for the message: a file that cannot be parsed is removed all the same.
    const stored = yield* Effect.orElseSucceed(readCredentials, () => Option.none())
    if (!(yield* removeCredentials)) {
      return yield* new LoginFailed({
        reason: `You are not logged in (no ${yield* credentialsPath}). Run 'gloss login' to log in to a Gloss server.`
      })
    }
    const from = Option.match(stored, { onNone: () => "", onSome: ({ api_url }) => ` from '${api_url}'` })
    yield* Console.log(`Logged out successfully${from}: the stored credentials were removed.`)
  })).pipe(Command.withDescription("Remove the credentials saved by 'gloss login'."))

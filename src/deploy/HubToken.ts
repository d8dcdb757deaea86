/**
 * Finding the Hub token, in the order `huggingface_hub` uses: the argument, `HF_TOKEN`, the token file; then, only with
 * a person at a terminal, a login prompt whose answer is checked with whoami and saved where `huggingface-cli login`
 * saves it.
 */
import { Prompt } from "@effect/cli"
import { FileSystem, Path, Terminal } from "@effect/platform"
import { Effect, Option, Redacted } from "effect"
import { type HubError, HubTokenFileError, MissingHubToken } from "./Errors.js"
import type { Whoami } from "./HubHttp.js"
import { cleanToken, type HubSettings } from "./HubSettings.js"

type Token = Redacted.Redacted<string>

export interface TokenSourceDeps {
  readonly settings: HubSettings
  readonly whoami: (token: Token) => Effect.Effect<Whoami, HubError>
  readonly fs: FileSystem.FileSystem
  readonly path: Path.Path
  readonly terminal: Terminal.Terminal
}

export const makeTokenSource = ({ fs, path, settings, terminal, whoami }: TokenSourceDeps) => {
  const { tokenPath } = settings
  const fileError = (error: { readonly message: string }) => new HubTokenFileError({ tokenPath, detail: error.message })

  const fromFile = fs.exists(tokenPath).pipe(
    Effect.flatMap((exists) => exists ? fs.readFileString(tokenPath) : Effect.succeed("")),
    Effect.map((text) => Option.map(cleanToken(text), Redacted.make)),
    Effect.mapError(fileError)
  )

  const save = (token: Token) =>
    fs.makeDirectory(path.dirname(tokenPath), { recursive: true, mode: 0o700 }).pipe(
      Effect.zipRight(fs.writeFileString(tokenPath, Redacted.value(token), { mode: 0o600 })),
      Effect.mapError(fileError)
    )

  const validate = (value: string) =>
    Option.match(cleanToken(value), {
      onNone: () => Effect.fail("Paste a token (https://huggingface.co/settings/tokens)"),
      onSome: (token) =>
        whoami(Redacted.make(token)).pipe(
          Effect.as(token),
          Effect.mapError((error) => error._tag === "HubUnauthorized" ? "Invalid token: the Hub refused it" : error.message)
        )
    })

  const login = Effect.gen(function*() {
    const token = yield* Prompt.run(Prompt.hidden({ message: "Hugging Face token (with write access)", validate })).pipe(
      Effect.provideService(Terminal.Terminal, terminal),
      Effect.provideService(FileSystem.FileSystem, fs),
      Effect.provideService(Path.Path, path),
      // Ctrl-C or a closed input at the prompt leaves us exactly where we were: without a token.
      Effect.catchTag("QuitException", () => new MissingHubToken({ tokenPath }))
    )
    yield* save(token)
    yield* Effect.logInfo(`Token saved to ${tokenPath}`)
    return token
  })

  return Effect.fn("Deploy.Hub.token")(function*(explicit?: string) {
    const given = Option.flatMap(Option.fromNullable(explicit), cleanToken)
    if (Option.isSome(given)) return Redacted.make(given.value)
    if (Option.isSome(settings.envToken)) return settings.envToken.value
    const stored = yield* fromFile
    if (Option.isSome(stored)) return stored.value
    if (yield* terminal.isTTY) return yield* login
    return yield* new MissingHubToken({ tokenPath })
  })
}

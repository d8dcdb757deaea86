import { Command, Options } from "@effect/cli"
import { Console, Effect, Option, Redacted } from "effect"
import { DEFAULT_REPO_NAME, deployOnSpaces } from "../deploy/deployOnSpaces.js"
import { Hub } from "../deploy/Hub.js"

const apiKey = Options.redacted("api-key").pipe(
  Options.withDescription("API key of the owner user on the Space (its API_KEY secret); at least 8 characters")
)
const repoName = Options.text("repo-name").pipe(
  Options.withDefault(DEFAULT_REPO_NAME),
  Options.withDescription("Name of the Space")
)
const orgName = Options.text("org-name").pipe(
  Options.optional,
  Options.withDescription("User or organization owning the Space (default: the owner of the token)")
)
const storage = Options.choice("storage", ["small", "medium", "large"]).pipe(
  Options.optional,
  Options.withDescription("Persistent storage tier; without it the data is reset whenever the Space restarts")
)
const hardware = Options.text("hardware").pipe(
  Options.withDefault("cpu-basic"),
  Options.withDescription("Space hardware, e.g. cpu-basic (sleeps after 48 hours of inactivity) or cpu-upgrade")
)
const isPrivate = Options.boolean("private").pipe(
  Options.withDescription("Make the Space private: clients then also send Authorization: Bearer <hub token>")
)
const hfToken = Options.redacted("hf-token").pipe(
  Options.optional,
  Options.withDescription("Hugging Face token (default: HF_TOKEN, then the token saved by a Hub login)")
)

export const deployCommand = Command.make(
  "deploy",
  { apiKey, repoName, orgName, storage, hardware, isPrivate, hfToken },
  (args) =>
    Effect.gen(function*() {
      const deployment = yield* deployOnSpaces({
        apiKey: Redacted.value(args.apiKey),
        repoName: args.repoName,
        orgName: Option.getOrUndefined(args.orgName),
        spaceStorage: Option.getOrUndefined(args.storage),
        spaceHardware: args.hardware,
        private: args.isPrivate,
        hfToken: Option.getOrUndefined(Option.map(args.hfToken, Redacted.value))
      })
      yield* Console.log(`Gloss is deployed: ${deployment.apiUrl} (Space ${deployment.repoId}, ${deployment.stage})`)
      if (args.isPrivate) {
        yield* Console.log("The Space is private: clients must also send Authorization: Bearer <your Hugging Face token>")
      }
    }).pipe(Effect.provide(Hub.Default))
).pipe(
  Command.withDescription(
    "Deploy Gloss to a Hugging Face Space: create it from the template Space (with the API key as its API_KEY " +
      "secret), or restart it when it exists and sleeps, then wait until it has been built. The token comes from " +
      "--hf-token, HF_TOKEN or the saved Hub login; on a terminal you are asked for one when none is found. " +
      "HF_ENDPOINT selects another Hub."
  )
)

/**
 * The Hugging Face variables the deploy helper reads, resolved the way `huggingface_hub` resolves them,
 * so a token saved by `huggingface-cli login` is found. Read through `Config`: these belong to the
 * machine running the client, not to a Gloss server, so they are not part of `GlossConfig`.
 */
import * as os from "node:os"
import * as path from "node:path"
import { Config, Option, Redacted } from "effect"
import * as V from "../config/values.js"

export const DEFAULT_HUB_ENDPOINT = "https://huggingface.co"

export interface HubSettings {
  /** Without a trailing slash. */
  readonly endpoint: string
  /** `HF_TOKEN`, cleaned. */
  readonly envToken: Option.Option<Redacted.Redacted<string>>
  /** Where a token is looked for and where an interactive login saves it. */
  readonly tokenPath: string
}

/** Tokens pasted into files and variables often carry a newline; huggingface_hub drops CR/LF and trims. */
export const cleanToken = (raw: string): Option.Option<string> => {
  const token = raw.replace(/[\r\n]/g, "").trim()
  return token === "" ? Option.none() : Option.some(token)
}

const expandHome = (p: string) => path.resolve(p.replace(/^~(?=$|\/)/, os.homedir()))

export const hubSettings: Config.Config<HubSettings> = Config.all({
  endpoint: V.parseWith("HF_ENDPOINT", V.httpUrl),
  token: V.optionalString("HF_TOKEN"),
  tokenPath: V.optionalString("HF_TOKEN_PATH"),
  hfHome: V.optionalString("HF_HOME"),
  cacheHome: V.optionalString("XDG_CACHE_HOME")
}).pipe(Config.map(({ cacheHome, endpoint, hfHome, token, tokenPath }) => {
  const home = Option.getOrElse(hfHome, () =>
    path.join(Option.getOrElse(cacheHome, () => path.join(os.homedir(), ".cache")), "huggingface"))
  return {
    endpoint: Option.match(endpoint, {
      onNone: () => DEFAULT_HUB_ENDPOINT,
      onSome: (url) => url.href.replace(/\/+$/, "")
    }),
    envToken: Option.map(Option.flatMap(token, cleanToken), Redacted.make),
    tokenPath: expandHome(Option.getOrElse(tokenPath, () => path.join(home, "token")))
  }
}))

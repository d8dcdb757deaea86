/**
 * The tutorial (docs/tutorial/first-dataset.md) as data, for the screenshot script and the test that keeps the
 * tutorial honest: its start command's variables, its marked shell blocks, the CSV it has the reader save, and
 * every `npm run gloss -- …` command it names.
 */
import * as fs from "node:fs"
import { fileURLToPath } from "node:url"

export const TUTORIAL_PATH = fileURLToPath(new URL("../../docs/tutorial/first-dataset.md", import.meta.url))

export const readTutorial = () => fs.readFileSync(TUTORIAL_PATH, "utf8")

/** The shell blocks that follow `<!-- mark -->`, in order. */
export const markedBlocks = (markdown: string, mark: string): ReadonlyArray<string> =>
  markdown.split(`<!-- ${mark} -->`).slice(1).map((after) => {
    const block = /^\s*```sh\n([\s\S]*?)\n```/.exec(after)
    if (block === null) throw new Error(`a <!-- ${mark} --> is not followed by a sh block`)
    return block[1]!
  })

/** `USERNAME=admin PASSWORD=… WORKSPACE=team npm start` → its variables. */
export const startEnv = (markdown: string): Readonly<Record<string, string>> => {
  const line = markedBlocks(markdown, "tutorial-start").flatMap((b) => b.split("\n")).find((l) => l.endsWith("npm start"))
  if (line === undefined) throw new Error("the tutorial's start block has no `… npm start` line")
  return Object.fromEntries(line.replace(/\s*npm start$/, "").split(/\s+/).filter((w) => w !== "").map((word) => {
    const [name, ...value] = word.split("=")
    return [name ?? "", value.join("=")]
  }))
}

/** The rows of the `cat > reviews.csv <<'EOF'` block: the file the reader saves. */
export const reviewsCsv = (markdown: string): string => {
  const heredoc = /cat > reviews\.csv <<'EOF'\n([\s\S]*?)\nEOF/.exec(markdown)
  if (heredoc === null) throw new Error("the tutorial has no reviews.csv block")
  return `${heredoc[1]}\n`
}

/** Every `npm run gloss -- …` the tutorial shows, in shell blocks or inline, as the text after `--`. */
export const glossCommands = (markdown: string): ReadonlyArray<string> => {
  const inBlocks = [...markdown.matchAll(/```sh\n([\s\S]*?)\n```/g)].flatMap((block) =>
    (block[1] ?? "").split("\n").flatMap((line) => /^npm run gloss -- (.+)$/.exec(line.trim())?.[1] ?? [])
  )
  const prose = markdown.replace(/```sh\n[\s\S]*?\n```/g, "").replace(/\s*\n\s*/g, " ")
  const inline = [...prose.matchAll(/`npm run gloss -- ([^`]+)`/g)].map((m) => m[1] ?? "")
  return [...inBlocks, ...inline].map((command) => command.trim())
}

/** The reviews of that CSV: its rows as `{ external_id, text }` (a quoted text keeps its commas). */
export const reviews = (markdown: string): ReadonlyArray<{ readonly external_id: string; readonly text: string }> =>
  reviewsCsv(markdown).trim().split("\n").slice(1).map((line) => {
    const [, external_id = "", text = ""] = /^([^,]+),"?(.*?)"?$/.exec(line) ?? []
    return { external_id, text }
  })

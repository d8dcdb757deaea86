/**
 * Everything a reader is pointed to is in the clone. The project's Markdown (the README, CONTRIBUTING, the
 * CHANGELOG, bench/README.md, the folder READMEs under `src/` and `ui/`, every page of the `docs/` site) and the
 * code comments that name a `*.md` file must point at files that exist, and each `#anchor` at a heading of its
 * target. Nothing may send a reader to a document that is not in the repository: the team's old design notes, a
 * `shared/` folder outside the clone, numbered sections ("§1.2") of a specification nobody else has, or "issue 21"
 * style tracker numbers. Say the reason in place, or link to the page of `docs/` that explains it.
 *
 * Anchors follow GitHub's slug rules (lower case, punctuation dropped, spaces to hyphens, `-1`, `-2` for repeats);
 * a page under `docs/` also answers to VitePress's slugs and its `{#custom-id}` headings, since the site renders it.
 * The site's navigation (`docs/.vitepress/config.*`) is checked too: VitePress's own dead-link check reads pages only.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = path.resolve(import.meta.dirname, "../..")
const SELF = "test/unit/doc-links.test.ts"

const SKIPPED_DIRS = new Set(["node_modules", "dist", ".git", ".venv", "cache", "results"])

/** Files under `dir` (relative to the root) whose name passes `keep`; build output, caches and bench results skipped. */
const walk = (dir: string, keep: (name: string) => boolean): Array<string> => {
  const at = path.join(ROOT, dir)
  if (!fs.existsSync(at)) return []
  if (fs.statSync(at).isFile()) return keep(path.basename(dir)) ? [dir] : []
  const found: Array<string> = []
  for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
    const rel = path.join(dir, entry.name)
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) found.push(...walk(rel, keep))
    } else if (keep(entry.name)) found.push(rel)
  }
  return found.sort()
}

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8")
const isFile = (file: string) => fs.existsSync(path.join(ROOT, file)) && fs.statSync(path.join(ROOT, file)).isFile()
const exists = (file: string) => fs.existsSync(path.join(ROOT, file))

/** The Markdown a reader of the clone or of the site reads. */
const markdownFiles = (): Array<string> => [
  ...["README.md", "CONTRIBUTING.md", "CHANGELOG.md", "bench/README.md"].filter(exists),
  ...walk("src", (name) => name === "README.md"),
  ...walk("ui", (name) => name === "README.md"),
  ...walk("docs", (name) => name.endsWith(".md"))
]

const SOURCE = /\.(ts|tsx|mts|js|mjs|cjs|css|html|sh|py|ya?ml|toml)$|^Dockerfile$|^run$/

/** Source files whose comments are read; the last ones are only searched for pointers outside the clone. */
const commentedSources = (): Array<string> => [
  ...["src", "test", "ui/src", "ui/test", "bench", "scripts"].flatMap((dir) => walk(dir, (name) => SOURCE.test(name)))
].filter((file) => file !== SELF)
const configFiles = (): Array<string> =>
  [
    ...walk("docker", (name) => SOURCE.test(name)),
    ...walk(".ci", () => true),
    ...walk("docs/.vitepress", (name) => SOURCE.test(name)),
    "Dockerfile",
    "docker-compose.yml",
    "vitest.config.ts",
    "package.json"
  ].filter(isFile)

// ---------------------------------------------------------------------------------------------------------------
// Headings and slugs

/** A heading's text as it renders: inline code, emphasis, links and HTML reduced to their words. */
const headingText = (raw: string) =>
  raw
    .replace(/\s+#+\s*$/, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/(\*\*|__)(.*?)\1/g, "$2")
    .replace(/(^|[^\w])[*_]([^*_]+)[*_](?=[^\w]|$)/g, "$1$2")
    .trim()

/** GitHub's (github-slugger): lower case, everything but letters, digits, marks, `_`, `-` and spaces dropped. */
const githubSlug = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-")

/** VitePress's (@mdit-vue/shared `slugify`). */
const vitepressSlug = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/[\u0300-\u036F]/g, "")
    .replace(/[\u0000-\u001f]/g, "")
    .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "")
    .replace(/^(\d)/, "_$1")
    .toLowerCase()

/** Lines outside fenced code blocks and front matter, with their line numbers. */
const proseLines = (text: string): Array<{ line: string; number: number }> => {
  const lines = text.split("\n")
  const kept: Array<{ line: string; number: number }> = []
  let fence: string | undefined
  let frontMatter = lines[0]?.trim() === "---"
  lines.forEach((line, index) => {
    if (frontMatter) {
      if (index > 0 && line.trim() === "---") frontMatter = false
      return
    }
    const opening = /^\s*(`{3,}|~{3,})/.exec(line)
    if (fence !== undefined) {
      if (opening !== null && opening[1]!.startsWith(fence)) fence = undefined
      return
    }
    if (opening !== null) {
      fence = opening[1]!
      return
    }
    kept.push({ line, number: index + 1 })
  })
  return kept
}

const anchorCache = new Map<string, Set<string>>()

/** Every anchor a Markdown file answers to. */
const anchorsOf = (file: string): Set<string> => {
  const cached = anchorCache.get(file)
  if (cached !== undefined) return cached
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  const add = (slug: string) => {
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  const isSite = file.startsWith("docs/")
  const lines = proseLines(read(file)).map(({ line }) => line)
  lines.forEach((line, index) => {
    let raw = /^ {0,3}#{1,6}\s+(.*)$/.exec(line)?.[1]
    if (raw === undefined && index + 1 < lines.length && line.trim() !== "" && /^ {0,3}(=+|-+)\s*$/.test(lines[index + 1]!)) {
      raw = line.trim()
    }
    if (raw !== undefined) {
      const custom = /\s*\{#([^}]+)\}\s*$/.exec(raw)
      if (custom !== null) {
        anchors.add(custom[1]!)
        raw = raw.slice(0, custom.index)
      }
      const text = headingText(raw)
      add(githubSlug(text))
      if (isSite) anchors.add(vitepressSlug(text))
    }
    for (const html of line.matchAll(/<a\s[^>]*(?:id|name)\s*=\s*["']([^"']+)["']/g)) anchors.add(html[1]!)
  })
  anchorCache.set(file, anchors)
  return anchors
}

// ---------------------------------------------------------------------------------------------------------------
// Links

interface Problem {
  readonly at: string
  readonly target: string
  readonly why: string
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")

/** The file a site-relative or file-relative link lands on, or undefined. VitePress drops `.md` and `.html`. */
const resolveLink = (from: string, target: string): string | undefined => {
  const inSite = from.startsWith("docs/")
  const base = target.startsWith("/") && inSite
    ? path.join("docs", target)
    : target.startsWith("/")
    ? target.slice(1)
    : path.join(path.dirname(from), target)
  const normal = path.normalize(base).replace(/\/$/, "")
  const candidates = [normal]
  if (inSite) {
    const bare = normal.replace(/\.html$/, "")
    candidates.push(`${bare}.md`, path.join(bare, "index.md"))
    if (target.startsWith("/")) candidates.push(path.join("docs/public", target))
  }
  candidates.push(path.join(normal, "README.md"))
  for (const candidate of candidates) {
    if (candidate === "" || candidate.startsWith("..")) continue
    if (isFile(candidate)) return candidate
  }
  if (normal !== "" && !normal.startsWith("..") && exists(normal)) return normal
  return undefined
}

const checkTarget = (from: string, at: string, rawTarget: string, problems: Array<Problem>) => {
  const target = rawTarget.replace(/^<|>$/g, "")
  if (target === "" || isExternal(target)) return
  const hash = target.indexOf("#")
  const pathPart = (hash === -1 ? target : target.slice(0, hash)).replace(/\?.*$/, "")
  const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1))
  const file = pathPart === "" ? from : resolveLink(from, decodeURIComponent(pathPart))
  if (file === undefined) {
    problems.push({ at, target, why: "no such file" })
    return
  }
  if (anchor === undefined || anchor === "" || !file.endsWith(".md")) return
  if (!anchorsOf(file).has(anchor)) problems.push({ at, target, why: `no heading of ${file} has the anchor #${anchor}` })
}

/** Inline links and images, reference definitions, HTML `href` / `src`, and `link:` in front matter. */
const markdownLinkProblems = (file: string): Array<Problem> => {
  const problems: Array<Problem> = []
  const text = read(file)
  for (const { line, number } of proseLines(text)) {
    const at = `${file}:${number}`
    const prose = line.replace(/(`+)[^`]*?\1/g, "")
    for (const match of prose.matchAll(/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+["'(][^)]*)?\)/g)) {
      checkTarget(file, at, match[1]!, problems)
    }
    const definition = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(prose)
    if (definition !== null) checkTarget(file, at, definition[1]!, problems)
    for (const match of prose.matchAll(/\b(?:href|src)\s*=\s*["']([^"']+)["']/g)) checkTarget(file, at, match[1]!, problems)
  }
  const frontMatter = /^---\n([\s\S]*?)\n---/.exec(text)?.[1]
  if (frontMatter !== undefined && file.startsWith("docs/")) {
    frontMatter.split("\n").forEach((line, index) => {
      const link = /^\s*-?\s*link:\s*["']?([^"'\s]+)/.exec(line)?.[1]
      if (link !== undefined) checkTarget(file, `${file}:${index + 2}`, link, problems)
    })
  }
  return problems
}

/** The comments of a source file, line by line: `//`, `/* … *\/` and JSDoc lines, or `#` for shell, Python, YAML. */
const commentLines = (file: string): Array<{ line: string; number: number }> => {
  const hashComments = /\.(sh|py|ya?ml|toml)$|Dockerfile$|\/run$/.test(file)
  const comments: Array<{ line: string; number: number }> = []
  let inBlock = false
  read(file).split("\n").forEach((line, index) => {
    const number = index + 1
    if (hashComments) {
      const hash = /(?:^|\s)#(?!!)(.*)$/.exec(line)
      if (hash !== null) comments.push({ line: hash[1]!, number })
      return
    }
    const trimmed = line.trim()
    if (inBlock) {
      comments.push({ line: trimmed, number })
      if (trimmed.includes("*/")) inBlock = false
      return
    }
    const block = line.indexOf("/*")
    const slashes = /(?:^|\s)\/\/(.*)$/.exec(line)
    if (block !== -1 && (slashes === null || block < slashes.index)) {
      comments.push({ line: line.slice(block), number })
      if (!line.slice(block + 2).includes("*/")) inBlock = true
      return
    }
    if (slashes !== null) comments.push({ line: slashes[1]!, number })
  })
  return comments
}

/** The folders of the site's sections: a comment in the generator may name a page by its file name alone. */
const siteSections = () =>
  ["docs", ...walk("docs", (name) => name.endsWith(".md")).map((file) => path.dirname(file))]
    .filter((dir, index, all) => all.indexOf(dir) === index)

/** A `*.md` path named in a comment resolves against the file's folder, the root, `src/`, `ui/` or a site section. */
const commentPathProblems = (file: string): Array<Problem> => {
  const problems: Array<Problem> = []
  for (const { line, number } of commentLines(file)) {
    for (const match of line.matchAll(/(?<![\w.@/-])((?:\.{1,2}\/|[\w.-]+\/)*[\w.-]+\.md)(#[\w-]+)?(?![\w/])/g)) {
      const named = match[1]!
      const at = `${file}:${number}`
      const found = [path.dirname(file), ".", "src", "ui", ...siteSections()]
        .map((dir) => path.normalize(path.join(dir, named)))
        .find((candidate) => !candidate.startsWith("..") && isFile(candidate))
      if (found === undefined) {
        problems.push({ at, target: named, why: "no such file" })
        continue
      }
      const anchor = match[2]?.slice(1)
      if (anchor !== undefined && !anchorsOf(found).has(anchor)) {
        problems.push({ at, target: `${named}#${anchor}`, why: `no heading of ${found} has the anchor #${anchor}` })
      }
    }
  }
  return problems
}

// ---------------------------------------------------------------------------------------------------------------
// Pointers outside the clone

const OUTSIDE = [
  { pattern: /\b(?:DESIGN|CLIENT|STACK|DEPLOY|STYLE|UI)\.md\b/g, why: "a document that is not in the repository" },
  { pattern: /(?<![\w.@-])shared\//g, why: "a folder outside the repository" },
  { pattern: /§\s*[A-Z]?\d+(?:\.\d+)*/g, why: "a numbered section of a document that is not in the repository" },
  { pattern: /\b[Ii]ssues? \d+\b/g, why: "a tracker number that means nothing outside the team" }
]

const outsideProblems = (file: string, lines: Array<{ line: string; number: number }>): Array<Problem> =>
  lines.flatMap(({ line, number }) =>
    OUTSIDE.flatMap(({ pattern, why }) => [...line.matchAll(pattern)].map((match) => ({ at: `${file}:${number}`, target: match[0], why })))
  )

const allLines = (file: string) => read(file).split("\n").map((line, index) => ({ line, number: index + 1 }))

const report = (problems: Array<Problem>) => problems.map(({ at, target, why }) => `${at}: ${target} — ${why}`)

// ---------------------------------------------------------------------------------------------------------------

describe("links and pointers in the documentation and the code", () => {
  it("scans the README and the pages it is about", () => {
    expect(markdownFiles()).toContain("README.md")
    expect(commentedSources().length).toBeGreaterThan(100)
  })

  it("every relative link and anchor in the Markdown resolves", () => {
    expect(report(markdownFiles().flatMap(markdownLinkProblems))).toEqual([])
  })

  it("every page the site's navigation and sidebar link to exists", () => {
    const problems: Array<Problem> = []
    const configs = walk("docs/.vitepress", (name) => /^config\.(ts|mts|js|mjs)$/.test(name))
    let links = 0
    for (const file of configs) {
      read(file).split("\n").forEach((line, index) => {
        for (const match of line.matchAll(/\blink:\s*["'`]([^"'`]+)["'`]/g)) {
          if (!match[1]!.startsWith("/")) continue
          links++
          checkTarget("docs/index.md", `${file}:${index + 1}`, match[1]!, problems)
        }
      })
    }
    if (configs.length > 0) expect(links).toBeGreaterThan(0)
    expect(report(problems)).toEqual([])
  })

  it("every `*.md` path a code comment names exists, with its anchor", () => {
    expect(report(commentedSources().flatMap(commentPathProblems))).toEqual([])
  })

  it("nothing points at documents, folders, sections or issues outside the repository", () => {
    const problems = [
      ...markdownFiles().flatMap((file) => outsideProblems(file, proseLines(read(file)))),
      ...[...commentedSources(), ...configFiles()].flatMap((file) => outsideProblems(file, allLines(file)))
    ]
    expect(report(problems)).toEqual([])
  })
})

/** The slug rules, on headings the docs use. */
describe("heading anchors", () => {
  it("follow GitHub's rules", () => {
    expect(githubSlug(headingText("Redis Cluster & Elasticsearch"))).toBe("redis-cluster--elasticsearch")
    expect(githubSlug(headingText("`GLOSS_HOME_PATH` and the data folder"))).toBe("gloss_home_path-and-the-data-folder")
    expect(githubSlug(headingText("What's [exact](./x.md), and why?"))).toBe("whats-exact-and-why")
  })

  it("follow VitePress's rules on the site", () => {
    expect(vitepressSlug(headingText("Redis Cluster & Elasticsearch"))).toBe("redis-cluster-elasticsearch")
    expect(vitepressSlug(headingText("1. Install"))).toBe("_1-install")
  })
})

import { readFileSync } from "node:fs"
import { afterEach, describe, expect, it } from "vitest"
import { applyTheme, isTheme, storedTheme, THEME_KEY, THEMES, type ThemeRoot } from "../../src/theme.js"

const bootScript = readFileSync(new URL("../../public/theme.js", import.meta.url), "utf8")

const fakeRoot = () => {
  const attributes = new Map<string, string>()
  const root: ThemeRoot = {
    setAttribute: (name, value) => void attributes.set(name, value),
    removeAttribute: (name) => void attributes.delete(name)
  }
  return { attributes, root }
}

const storageWith = (stored: string | null) => ({ getItem: (key: string) => (key === THEME_KEY ? stored : null) })

/** Runs public/theme.js, as the browser does before the first paint, against a stand-in storage and document. */
const runBootScript = (stored: string | null) => {
  const { attributes, root } = fakeRoot()
  new Function("localStorage", "document", bootScript)(storageWith(stored), { documentElement: root })
  return attributes.get("data-theme")
}

const runApp = (stored: string | null) => {
  Object.assign(globalThis, { localStorage: storageWith(stored) })
  const { attributes, root } = fakeRoot()
  applyTheme(storedTheme(), root)
  return attributes.get("data-theme")
}

describe("theme", () => {
  afterEach(() => {
    Reflect.deleteProperty(globalThis, "localStorage")
  })

  it("the boot script and the app set the same data-theme for every stored value", () => {
    for (const stored of [...THEMES, null, "", "sepia", "HIGH-CONTRAST"]) {
      expect(runBootScript(stored), `stored ${stored}`).toBe(runApp(stored))
    }
  })

  it("system leaves data-theme off; the others set it to their name", () => {
    expect(runApp("system")).toBeUndefined()
    expect(runApp(null)).toBeUndefined()
    expect(runApp("high-contrast")).toBe("high-contrast")
    expect(runApp("dark")).toBe("dark")
  })

  it("an unknown stored value falls back to the system theme", () => {
    Object.assign(globalThis, { localStorage: storageWith("sepia") })
    expect(storedTheme()).toBe("system")
    expect(isTheme("sepia")).toBe(false)
  })

  it("disabled storage falls back to the system theme in both", () => {
    const throwing = { getItem: () => { throw new Error("SecurityError") } }
    const { attributes, root } = fakeRoot()
    new Function("localStorage", "document", bootScript)(throwing, { documentElement: root })
    expect(attributes.get("data-theme")).toBeUndefined()
    Object.assign(globalThis, { localStorage: throwing })
    expect(storedTheme()).toBe("system")
  })
})

/**
 * The colour theme: the system's (light or dark, through `prefers-color-scheme`), or one chosen in My settings,
 * kept in localStorage and shown as `data-theme` on `<html>` (styles.css keys its colour variables on it).
 * `public/theme.js` applies the stored choice before the first paint, as a file because the CSP forbids inline
 * scripts; this module is the app's side of the same rule (test/unit/theme.test.ts runs both and compares).
 */
import { useSyncExternalStore } from "react"

export const THEMES = ["system", "light", "dark", "high-contrast"] as const
export type Theme = (typeof THEMES)[number]

export const THEME_LABELS: Record<Theme, string> = {
  system: "System",
  light: "Light",
  dark: "Dark",
  "high-contrast": "High contrast"
}

export const THEME_KEY = "gloss.theme"

export const isTheme = (value: unknown): value is Theme => THEMES.some((theme) => theme === value)

/** What `applyTheme` touches: `document.documentElement`, or a stand-in in tests. */
export interface ThemeRoot {
  setAttribute(name: string, value: string): void
  removeAttribute(name: string): void
}

export const storedTheme = (): Theme => {
  try {
    const value = localStorage.getItem(THEME_KEY)
    return isTheme(value) ? value : "system"
  } catch {
    return "system"
  }
}

/** "system" leaves the attribute off, so the media query decides. */
export const applyTheme = (theme: Theme, root: ThemeRoot = document.documentElement) => {
  if (theme === "system") root.removeAttribute("data-theme")
  else root.setAttribute("data-theme", theme)
}

const listeners = new Set<() => void>()

export const setTheme = (theme: Theme) => {
  try {
    if (theme === "system") localStorage.removeItem(THEME_KEY)
    else localStorage.setItem(THEME_KEY, theme)
  } catch {
    // storage disabled: the choice lasts as long as the page
  }
  applyTheme(theme)
  for (const listener of listeners) listener()
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  // A choice made in another tab applies here too.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== THEME_KEY && event.key !== null) return
    applyTheme(storedTheme())
    listener()
  }
  window.addEventListener("storage", onStorage)
  return () => {
    listeners.delete(listener)
    window.removeEventListener("storage", onStorage)
  }
}

export const useTheme = (): Theme => useSyncExternalStore(subscribe, storedTheme)

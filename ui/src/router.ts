/**
 * A small history router: the app has five routes, all of them Argilla's so existing links keep working. Paths
 * are relative to the app's base URL (`GLOSS_BASE_URL`); view state lives in the query string.
 */
import { createElement, type MouseEvent, type ReactNode, useSyncExternalStore } from "react"

const basePath = () => new URL(document.baseURI).pathname.replace(/\/$/, "")

export interface Location {
  readonly path: string
  readonly search: URLSearchParams
  /** path + query, as given to `navigate` */
  readonly href: string
}

const listeners = new Set<() => void>()
let cached: { readonly key: string; readonly location: Location } | undefined

const snapshot = (): Location => {
  const key = window.location.pathname + window.location.search
  if (cached?.key !== key) {
    const base = basePath()
    const raw = window.location.pathname
    const path = raw.startsWith(base) ? raw.slice(base.length) || "/" : raw
    cached = { key, location: { path, search: new URLSearchParams(window.location.search), href: path + window.location.search } }
  }
  return cached.location
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  window.addEventListener("popstate", listener)
  return () => {
    listeners.delete(listener)
    window.removeEventListener("popstate", listener)
  }
}

export const useLocation = (): Location => useSyncExternalStore(subscribe, snapshot)

export const navigate = (to: string, options: { readonly replace?: boolean } = {}) => {
  const url = basePath() + to
  if (options.replace === true) window.history.replaceState(null, "", url)
  else window.history.pushState(null, "", url)
  for (const listener of listeners) listener()
}

/** Replaces some query parameters of the current location (empty values are removed). */
export const setSearch = (changes: Readonly<Record<string, string | undefined>>, options = { replace: true }) => {
  const { path, search } = snapshot()
  const next = new URLSearchParams(search)
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === "") next.delete(key)
    else next.set(key, value)
  }
  const query = next.toString()
  navigate(query === "" ? path : `${path}?${query}`, options)
}

export const Link = (props: { readonly to: string; readonly children: ReactNode; readonly className?: string }) =>
  createElement("a", {
    href: basePath() + props.to,
    className: props.className,
    onClick: (event: MouseEvent<HTMLAnchorElement>) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
      event.preventDefault()
      navigate(props.to)
    }
  }, props.children)

/** `/dataset/:id/annotation-mode` → `{ id }` when `path` matches `pattern`. */
export const match = (pattern: string, path: string): Record<string, string> | undefined => {
  const want = pattern.split("/")
  const got = path.split("/")
  if (want.length !== got.length) return undefined
  const params: Record<string, string> = {}
  for (const [i, part] of want.entries()) {
    const actual = got[i] ?? ""
    if (part.startsWith(":")) params[part.slice(1)] = decodeURIComponent(actual)
    else if (part !== actual) return undefined
  }
  return params
}

/**
 * Where to go after sign-in. The OAuth round trip through the provider cannot carry `?redirect=`, so it waits in
 * this tab's sessionStorage until the callback page reads it.
 */
const KEY = "gloss.oauth.redirect"

/** Only paths inside the app: never an absolute URL that would send the user elsewhere. */
export const safeRedirect = (raw: string | null) =>
  raw !== null && raw.startsWith("/") && !raw.startsWith("//") ? raw : "/"

export const rememberRedirect = (raw: string | null) => {
  try {
    sessionStorage.setItem(KEY, safeRedirect(raw))
  } catch {
    // storage disabled: the user lands on the home page
  }
}

export const takeRedirect = (): string => {
  try {
    const saved = sessionStorage.getItem(KEY)
    sessionStorage.removeItem(KEY)
    return safeRedirect(saved)
  } catch {
    return "/"
  }
}

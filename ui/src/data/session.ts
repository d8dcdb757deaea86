/**
 * The signed-in session: the bearer token from `POST /token`, kept in localStorage so it survives reloads. Nothing
 * else in the app reads or writes it. `expired` is set when the server answers 401, so the app can send the user
 * to sign-in and back.
 */
const KEY = "gloss.token"

type Listener = () => void

export interface SessionState {
  readonly token: string | null
  readonly expired: boolean
}

const read = (): string | null => {
  try {
    return localStorage.getItem(KEY)
  } catch {
    return null
  }
}

// One session per tab: this is the single piece of module state the UI keeps outside React.
let state: SessionState = { token: read(), expired: false }
const listeners = new Set<Listener>()

const set = (next: SessionState) => {
  state = next
  try {
    if (next.token === null) localStorage.removeItem(KEY)
    else localStorage.setItem(KEY, next.token)
  } catch {
    // storage disabled: the session lasts as long as the tab
  }
  for (const listener of listeners) listener()
}

export const session = {
  get: (): SessionState => state,
  token: (): string | null => state.token,
  signIn: (token: string) => set({ token, expired: false }),
  signOut: () => set({ token: null, expired: false }),
  /** The server refused the token (401). */
  expire: () => {
    if (state.token !== null) set({ token: null, expired: true })
  },
  subscribe: (listener: Listener) => {
    listeners.add(listener)
    return () => void listeners.delete(listener)
  }
}

// Another tab signed in or out.
if (typeof window !== "undefined") {
  window.addEventListener("storage", (event) => {
    if (event.key === KEY) set({ token: read(), expired: false })
  })
}

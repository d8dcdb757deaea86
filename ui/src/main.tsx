import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { App } from "./App.js"
import "./styles.css"
import { applyTheme, storedTheme } from "./theme.js"

// public/theme.js has done this before the first paint; again here in case that file did not load.
applyTheme(storedTheme())

const root = document.getElementById("root")
if (root !== null) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>
  )
}

// Applies the theme chosen in My settings before the first paint (src/theme.ts is the app's side of the same
// rule). A file rather than an inline script: the app's CSP is default-src 'self'.
try {
  var theme = localStorage.getItem("gloss.theme")
  if (theme === "light" || theme === "dark" || theme === "high-contrast") {
    document.documentElement.setAttribute("data-theme", theme)
  }
} catch (e) {
  // storage disabled: the system's theme
}

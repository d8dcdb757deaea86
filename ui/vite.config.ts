/** Builds the web UI into `dist/ui` (served by `src/http/StaticUi.ts`); `npm run dev:ui` proxies `/api` to a local Gloss. */
import { fileURLToPath } from "node:url"
import { defineConfig } from "vite"

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url))

export default defineConfig({
  root: here("."),
  // Relative asset URLs, resolved against the `<base href>` the server writes: works under any GLOSS_BASE_URL.
  base: "./",
  esbuild: { jsx: "automatic" },
  build: {
    outDir: here("../dist/ui"),
    emptyOutDir: true,
    target: "es2022",
    reportCompressedSize: false,
    chunkSizeWarningLimit: 1024,
    rollupOptions: {
      input: { index: here("index.html"), sandbox: here("sandbox.html") },
      // TanStack Query marks its modules "use client" for React Server Components, which a SPA does not use.
      onwarn: (warning, warn) => {
        if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning)
      }
    }
  },
  server: { proxy: { "/api": process.env["GLOSS_DEV_API"] ?? "http://127.0.0.1:6999" } }
})

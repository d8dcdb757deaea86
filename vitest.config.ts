import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Database tests share one PostgreSQL server; files use their own schemas, so they may run in parallel.
    pool: "forks",
  }
})

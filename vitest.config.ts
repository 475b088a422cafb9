import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["specs/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    fileParallelism: true,
    maxWorkers: 2
  }
})

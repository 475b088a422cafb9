import { configDefaults, defineConfig } from "vitest/config"

// Suites that need a real server are named for it and run only when it is configured, so no test is ever skipped:
// *.pg.test.ts needs DATABASE_URL, *.nats.test.ts needs NATS_URL, and *.pg.nats.test.ts needs both.
// With DATABASE_URL or NATS_URL set, those suites run and fail if the server does not answer.
const configured = (name: string) => (process.env[name] ?? "") !== ""
const needs = (tag: string) => [`**/*.${tag}.test.ts`, `**/*.${tag}.*.test.ts`]

export default defineConfig({
  test: {
    include: ["specs/**/*.test.ts"],
    exclude: [
      ...configDefaults.exclude,
      ...(configured("DATABASE_URL") ? [] : needs("pg")),
      ...(configured("NATS_URL") ? [] : needs("nats"))
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    fileParallelism: true,
    maxWorkers: 2
  }
})

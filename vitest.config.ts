import { configDefaults, defineConfig } from "vitest/config"

// Suites that need a real server are named for it and run only when it is configured, so no test is ever skipped:
// *.pg.test.ts needs DATABASE_URL, *.nats.test.ts needs NATS_URL, and *.pg.nats.test.ts needs both.
// With DATABASE_URL or NATS_URL set, those suites run, and the run stops at once if the server does not answer.
const configured = (name: string) => (process.env[name] ?? "") !== ""
const needs = (tag: string) => [`**/*.${tag}.test.ts`, `**/*.${tag}.*.test.ts`]
const exclude = [
  ...configDefaults.exclude,
  ...(configured("DATABASE_URL") ? [] : needs("pg")),
  ...(configured("NATS_URL") ? [] : needs("nats"))
]
// Pure suites never start a database (TestDatabase refuses under TEST_PURE); the rest start the app over a database
// copied from the run's template. Files share their worker's modules (effect and the app load once per worker).
const databaseFree = ["specs/unit/**/*.test.ts", "specs/property/**/*.test.ts"]
const withDatabase = [
  "specs/integration/**/*.test.ts",
  "specs/property/bookings/**/*.test.ts",
  "specs/property/payments/**/*.test.ts"
]

export default defineConfig({
  test: {
    // A skipped test or a file that does not load fails the run.
    reporters: ["default", "./specs/support/noSkips.ts"],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: "forks",
    // One worker process runs many files (set here: the pool reads it from the root, not from a project); TEST_ISOLATE=1
    // gives each file a fresh process, as a check that no file leans on what another left behind.
    poolOptions: { forks: { isolate: process.env.TEST_ISOLATE === "1" } },
    fileParallelism: true,
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "pure",
          include: databaseFree,
          exclude: [...exclude, ...withDatabase],
          isolate: false,
          env: { TEST_PURE: "1" }
        }
      },
      // Its globalSetup checks that DATABASE_URL and NATS_URL answer, then makes the migrated template, once per run.
      {
        extends: true,
        test: {
          name: "integration",
          isolate: process.env.TEST_ISOLATE === "1",
          include: withDatabase,
          exclude,
          globalSetup: ["specs/support/setup.ts"]
        }
      }
    ]
  }
})

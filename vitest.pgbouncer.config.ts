import { configDefaults, defineConfig } from "vitest/config"

// The booking, idempotency, race and relay suites again, through a PgBouncer the run starts in transaction mode in front
// of the Postgres in DATABASE_URL (specs/support/pooledSetup.ts): `npm run test:pgbouncer`, after `npm test` on Postgres.
// *.nats.test.ts files run when NATS_URL is set, as in vitest.config.ts.
const configured = (name: string) => (process.env[name] ?? "") !== ""

export default defineConfig({
  test: {
    reporters: ["default", "./specs/support/noSkips.ts"],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: "forks",
    poolOptions: { forks: { isolate: false } },
    fileParallelism: true,
    maxWorkers: 2,
    name: "pgbouncer",
    include: [
      // Booking: making one, and every step of its life (hold, confirm, move, cancel) in its transaction.
      "specs/integration/bookings/create.test.ts",
      "specs/integration/bookings/lifecycle.test.ts",
      "specs/integration/bookings/transaction.test.ts",
      // Races: exactly K places under contention, across instances, deadlocks run again, gift cards spent once.
      "specs/integration/bookings/concurrency.test.ts",
      "specs/integration/bookings/concurrency.pg.test.ts",
      "specs/integration/bookings/flash.pg.test.ts",
      "specs/integration/bookings/deadlocks.pg.test.ts",
      "specs/integration/promos/giftRace.pg.test.ts",
      "specs/integration/foundation/idempotency.test.ts",
      // The relay: its turn is a transaction's advisory lock; two instances publish each event once.
      "specs/integration/events/relay.test.ts",
      "specs/integration/events/relay.pg.nats.test.ts"
    ],
    exclude: [
      ...configDefaults.exclude,
      ...(configured("NATS_URL") ? [] : ["**/*.nats.test.ts", "**/*.nats.*.test.ts"])
    ],
    globalSetup: ["specs/support/pooledSetup.ts"]
  }
})

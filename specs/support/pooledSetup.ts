import pg from "pg"
import type { TestProject } from "vitest/node"
import { startPgbouncer } from "./pgbouncer.ts"
import { prepare } from "./setup.ts"

/** Transactions PgBouncer carried to the run's test databases (its admin console's SHOW STATS). */
const carried = async (port: number) => {
  const c = new pg.Client({ host: "127.0.0.1", port, user: "postgres", database: "pgbouncer" })
  await c.connect()
  try {
    const rows = (await c.query<{ database: string; total_xact_count: string }>("show stats")).rows
    return rows.filter((r) => r.database.startsWith("be_")).reduce((n, r) => n + Number(r.total_xact_count), 0)
  } finally {
    await c.end()
  }
}

/**
 * globalSetup of vitest.pgbouncer.config.ts: a PgBouncer of its own in transaction mode in front of
 * the Postgres in DATABASE_URL, then the engines of the run go through it as production does behind a pooler:
 * DATABASE_URL is the pooler, DATABASE_DIRECT_URL Postgres itself (the LISTEN connection; the run's own create and drop
 * of databases), DB_PREPARED_STATEMENTS=0 (PgBouncer 1.18 cannot carry named prepared statements). Workers start after
 * it and inherit the environment. Then setup.ts's checks and templates (no build: none of these suites runs dist). Fails, never skips, without DATABASE_URL or without pgbouncer, and at the end if the
 * suites' transactions did not go through it.
 */
export default async function pooledSetup(project: TestProject) {
  const url = process.env.DATABASE_URL ?? ""
  if (url === "")
    throw new Error(
      "vitest.pgbouncer.config.ts runs the suites through PgBouncer in front of Postgres: set DATABASE_URL"
    )
  const u = new URL(url)
  // Server connections per test database; the cap keeps the run within the machine's max_connections.
  const pooler = await startPgbouncer(u.hostname, Number(u.port || 5432), { poolSize: 10, serverCap: 40 })
  process.env.DATABASE_DIRECT_URL = url
  process.env.DATABASE_URL = pooler.through(url)
  process.env.DB_PREPARED_STATEMENTS = "0"
  const templates = await prepare(project, { build: false }).catch(async (e) => {
    await pooler.dispose()
    throw e
  })
  return async () => {
    process.env.DATABASE_URL = url
    try {
      await templates?.()
      const n = await carried(pooler.port)
      process.stdout.write(`\nPgBouncer carried ${n} transactions of the test databases\n`)
      if (n === 0) throw new Error("no transaction of the test databases went through PgBouncer")
    } finally {
      await pooler.dispose()
    }
  }
}

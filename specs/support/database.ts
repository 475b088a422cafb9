import { Effect, Layer } from "effect"
import pg from "pg"
import { randomBytes } from "node:crypto"
import { rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PgliteLive } from "../../adapters/db/pglite.ts"
import { PostgresLive } from "../../adapters/db/postgres.ts"

export const usingPostgres = () => (process.env.DATABASE_URL ?? "") !== ""

const withDb = (url: string, db: string) => {
  const u = new URL(url)
  u.pathname = `/${db}`
  return u.toString()
}

const admin = async <A>(url: string, f: (c: pg.Client) => Promise<A>) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await f(client)
  } finally {
    await client.end()
  }
}

/**
 * A fresh database per test file on the real server (DATABASE_URL), else in-memory PGlite.
 * With `reuse` (a name), a database that outlives the app (PGlite: a directory under the temp dir), so a second app can
 * start over the same data; remove it with dropTestDatabase.
 */
export const TestDatabase = (reuse?: string) => {
  const url = process.env.DATABASE_URL ?? ""
  if (reuse !== undefined) return url === "" ? PgliteLive(join(tmpdir(), reuse)) : namedDatabase(url, reuse)
  if (url === "") return PgliteLive(undefined)
  const name = `be_test_${randomBytes(6).toString("hex")}`
  return Layer.unwrapScoped(Effect.gen(function*() {
    yield* Effect.acquireRelease(
      Effect.promise(() => admin(url, (c) => c.query(`create database ${name}`))),
      () => Effect.promise(() => admin(url, (c) => c.query(`drop database if exists ${name} with (force)`))).pipe(Effect.ignore)
    )
    return PostgresLive(withDb(url, name), 20)
  }))
}

const namedDatabase = (url: string, name: string) =>
  Layer.unwrapEffect(Effect.promise(async () => {
    const exists = await admin(url, (c) => c.query("select 1 from pg_database where datname = $1", [name]))
    if (exists.rowCount === 0) await admin(url, (c) => c.query(`create database ${name}`))
    return PostgresLive(withDb(url, name), 20)
  }))

/** Removes a database made by TestDatabase(name). */
export const dropTestDatabase = async (name: string) => {
  const url = process.env.DATABASE_URL ?? ""
  if (url === "") return rm(join(tmpdir(), name), { recursive: true, force: true })
  await admin(url, (c) => c.query(`drop database if exists ${name} with (force)`))
}

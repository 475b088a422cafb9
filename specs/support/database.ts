import { Effect, Layer } from "effect"
import pg from "pg"
import { randomBytes } from "node:crypto"
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

/** A fresh database per test file on the real server (DATABASE_URL), else in-memory PGlite. */
export const TestDatabase = () => {
  const url = process.env.DATABASE_URL ?? ""
  if (url === "") return PgliteLive(undefined)
  const name = `be_test_${randomBytes(6).toString("hex")}`
  return Layer.unwrapScoped(Effect.gen(function*() {
    yield* Effect.acquireRelease(
      Effect.promise(() => admin(url, (c) => c.query(`create database ${name}`))),
      () => Effect.promise(() => admin(url, (c) => c.query(`drop database if exists ${name} with (force)`))).pipe(Effect.ignore)
    )
    return PostgresLive(withDb(url, name), 40)
  }))
}

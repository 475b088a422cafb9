import { createHash, randomBytes } from "node:crypto"
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { NodeContext } from "@effect/platform-node"
import type { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import pg from "pg"
import { MigrateLive } from "../../adapters/db/migrate.ts"
import { openPglite, PgliteServed } from "../../adapters/db/pglite.ts"
import { PostgresLive } from "../../adapters/db/postgres.ts"

/**
 * A migrated database made once per run and copied for each test database: PGlite starts from a dump of a migrated
 * data dir (cached in the temp dir, keyed by the migrations and the PGlite version); Postgres creates each test
 * database from a migrated template database. The app's migrator still runs on start and finds nothing to do.
 */
const root = fileURLToPath(new URL("../..", import.meta.url))
const migrationsDir = join(root, "engine/store/migrations")
const rulesDir = join(root, "engine/store/rules")

export const migrationsHash = async () => {
  const hash = createHash("sha256")
  const files = [
    "engine/store/Migrations.ts",
    "adapters/db/migrate.ts",
    "adapters/db/pglite.ts",
    "specs/support/template.ts"
  ].map((f) => join(root, f))
  files.push(...(await readdir(migrationsDir)).sort().map((f) => join(migrationsDir, f)))
  files.push(join(root, "adapters/db/rules.ts"), ...(await readdir(rulesDir)).sort().map((f) => join(rulesDir, f)))
  for (const f of files) hash.update(f.slice(root.length)).update(await readFile(f))
  hash.update(await readFile(join(root, "node_modules/@electric-sql/pglite/package.json")))
  return hash.digest("hex").slice(0, 16)
}

const migrated = <ROut, E>(database: Layer.Layer<ROut | SqlClient.SqlClient, E>) =>
  Layer.build(MigrateLive.pipe(Layer.provide(Layer.merge(Layer.orDie(database), NodeContext.layer))))

/** The path of a dump of a freshly migrated PGlite data dir: reused when present, else made and written atomically. */
export const pgliteTemplate = async (): Promise<string> => {
  const dir = join(tmpdir(), "booking-engine-tests")
  const file = join(dir, `pglite-${await migrationsHash()}.tar`)
  if (
    await stat(file).then(
      (s) => s.size > 0,
      () => false
    )
  )
    return file
  await mkdir(dir, { recursive: true })
  const db = await openPglite(undefined)
  const dump = await Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        yield* migrated(PgliteServed(() => Promise.resolve(db)))
        // Each copy is a database of its own, as if made anew: it makes its deployment id on start
        // (engine/store/deployment.ts). Copies of one data dir cannot tell themselves apart; a Postgres copy has an oid of
        // its own and renews the id on start.
        yield* Effect.promise(() => db.exec("delete from deployment"))
        return yield* Effect.promise(() => db.dumpDataDir("none"))
      })
    )
  )
  const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`
  await writeFile(partial, new Uint8Array(await dump.arrayBuffer()))
  await rename(partial, file)
  return file
}

/** The dump as a data dir on disk (next to it, made once): copied for the engines and CLIs tests start as processes. */
export const pgliteTemplateDir = async (dump: string): Promise<string> => {
  const dir = dump.replace(/\.tar$/, ".dir")
  if (
    await stat(join(dir, "PG_VERSION")).then(
      () => true,
      () => false
    )
  )
    return dir
  const partial = `${dir}.${process.pid}.${randomBytes(4).toString("hex")}`
  const db = await openPglite(partial, await readTemplate(dump))
  await db.close()
  await rename(partial, dir).catch(() => rm(partial, { recursive: true, force: true }))
  return dir
}

/** The dump at `file`, as PGlite's loadDataDir takes it. */
export const readTemplate = async (file: string) => new Blob([new Uint8Array(await readFile(file))])

export const withDb = (url: string, db: string) => {
  const u = new URL(url)
  u.pathname = `/${db}`
  return u.toString()
}

export const admin = async <A>(url: string, f: (c: pg.Client) => Promise<A>) => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 })
  await client.connect()
  try {
    return await f(client)
  } finally {
    await client.end()
  }
}

/** A template database for this run on the server at `url`, migrated; drop it with dropPostgresTemplate. */
export const postgresTemplate = async (url: string): Promise<string> => {
  const name = `be_template_${(await migrationsHash()).slice(0, 8)}_${randomBytes(4).toString("hex")}`
  await admin(url, (c) => c.query(`create database ${name}`))
  // The pool is ended with the scope: CREATE DATABASE ... TEMPLATE needs the template to have no sessions.
  await Effect.runPromise(Effect.scoped(migrated(PostgresLive(withDb(url, name), 2))))
  return name
}

export const dropPostgresTemplate = (url: string, name: string) =>
  admin(url, (c) => c.query(`drop database if exists ${name} with (force)`))

import { randomBytes } from "node:crypto"
import { existsSync, mkdtempSync } from "node:fs"
import { cp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { PGlite } from "@electric-sql/pglite"
import { Effect, Layer } from "effect"
import { inject } from "vitest"
import { openPglite, PgliteServed } from "../../adapters/db/pglite.ts"
import { PostgresLive } from "../../adapters/db/postgres.ts"
import { admin, readTemplate, withDb } from "./template.ts"

declare module "vitest" {
  export interface ProvidedContext {
    /** Made by specs/support/setup.ts: the PGlite dump's path, or the Postgres template database's name. */
    databaseTemplate: string
    /** A migrated PGlite data dir (also with DATABASE_URL set), copied for engines and CLIs started as in production. */
    pgliteTemplateDir: string
  }
}

export const usingPostgres = () => (process.env.DATABASE_URL ?? "") !== ""

const template = () => {
  if (process.env.TEST_PURE === "1")
    throw new Error("a pure suite (specs/unit, specs/property) started a database: move it to specs/integration")
  const t = inject("databaseTemplate")
  if (!t) throw new Error("no database template: run the suites through vitest.config.ts, whose globalSetup makes it")
  return t
}

let dump: Promise<Blob> | undefined
const pgliteFromTemplate = (dataDir: string | undefined) =>
  PgliteServed(async () => {
    // A data dir that already holds a database (a second engine over the same data) opens as it is.
    if (dataDir !== undefined && existsSync(join(dataDir, "PG_VERSION"))) return openPglite(dataDir)
    return openPglite(dataDir, await (dump ??= readTemplate(template())))
  })

/**
 * In-memory PGlite instances of this worker that no app holds, each back in the template's state: opening one from the
 * dump takes most of a second, emptying the tables a tenth of that. At most two are kept (a file may run two apps).
 */
const idle: Array<PGlite> = []
const backToTemplate = async (db: PGlite) => {
  // Whatever the app left open or set in the session: a transaction, prepared statements, listeners, advisory locks.
  await db.exec("rollback")
  await db.exec("discard all")
  const [{ tables }] = (
    await db.query<{ tables: string }>(`
    select string_agg(format('%I', tablename), ', ') as tables from pg_tables
    where schemaname = 'public' and tablename <> 'effect_sql_migrations'`)
  ).rows
  await db.exec(`truncate ${tables} restart identity cascade`)
}
const pooledPglite = () =>
  PgliteServed(
    async () => idle.pop() ?? openPglite(undefined, await (dump ??= readTemplate(template()))),
    async (db) => {
      if (idle.length >= 2) return db.close()
      try {
        await backToTemplate(db)
        idle.push(db)
      } catch {
        await db.close()
      }
    }
  )

/**
 * Where the run's own create and drop of databases go: Postgres itself (DATABASE_DIRECT_URL when DATABASE_URL is a
 * pooler, as in vitest.pgbouncer.config.ts: a pooler holding a session on the template would refuse the copy).
 */
export const adminUrl = () => process.env.DATABASE_DIRECT_URL || (process.env.DATABASE_URL ?? "")

/** The engine's layer over the database `name`: through the pooler with its direct URL and settings when there is one. */
const engineDatabase = (name: string) => {
  const url = process.env.DATABASE_URL ?? ""
  const direct = process.env.DATABASE_DIRECT_URL ?? ""
  if (direct === "") return PostgresLive(withDb(url, name), 20)
  const prepared = !["0", "false"].includes((process.env.DB_PREPARED_STATEMENTS ?? "").toLowerCase())
  return PostgresLive(withDb(url, name), 20, undefined, { directUrl: withDb(direct, name), prepared })
}

const createFromTemplate = (name: string) =>
  admin(adminUrl(), (c) => c.query(`create database ${name} template ${template()}`))
const dropDatabase = (name: string) => admin(adminUrl(), (c) => c.query(`drop database if exists ${name} with (force)`))

/**
 * A fresh, migrated database per call: on the real server (DATABASE_URL) a new database copied from the run's template,
 * else an in-memory PGlite in the template's state (loaded from the dump, or one an earlier app of this worker used, emptied).
 * With `reuse` (a name), a database that outlives the app (PGlite: a directory under the temp dir), so a second app can
 * start over the same data; remove it with dropTestDatabase.
 */
export const TestDatabase = (reuse?: string) => {
  const url = process.env.DATABASE_URL ?? ""
  if (reuse !== undefined) return url === "" ? pgliteFromTemplate(join(tmpdir(), reuse)) : namedDatabase(reuse)
  if (url === "") return pooledPglite()
  const name = `be_test_${randomBytes(6).toString("hex")}`
  return Layer.unwrapScoped(
    Effect.gen(function* () {
      yield* Effect.acquireRelease(
        Effect.promise(() => createFromTemplate(name)),
        () => Effect.promise(() => dropDatabase(name)).pipe(Effect.ignore)
      )
      return engineDatabase(name)
    })
  )
}

const namedDatabase = (name: string) =>
  Layer.unwrapEffect(
    Effect.promise(async () => {
      const exists = await admin(adminUrl(), (c) => c.query("select 1 from pg_database where datname = $1", [name]))
      if (exists.rowCount === 0) await createFromTemplate(name)
      return engineDatabase(name)
    })
  )

/** Removes a database made by TestDatabase(name). */
export const dropTestDatabase = async (name: string) => {
  const url = process.env.DATABASE_URL ?? ""
  if (url === "") return rm(join(tmpdir(), name), { recursive: true, force: true })
  await dropDatabase(name)
}

/** A fresh database on the real server copied from the run's template, by URL (for tests that reach it their own way). */
export const freshPostgresDatabase = async () => {
  const url = process.env.DATABASE_URL ?? ""
  const name = `be_test_${randomBytes(6).toString("hex")}`
  await createFromTemplate(name)
  return { url: withDb(url, name), drop: () => dropDatabase(name) }
}

/**
 * A new PGlite data dir holding the migrated template, for an engine process (`DATA_DIR`) or the CLI: it starts as a
 * migrated database does, without running every migration again (the run's globalSetup ran them once on PGlite).
 * It is made under `parent`, which the suite removes.
 */
export const seededDataDir = async (parent: string) => {
  const dir = mkdtempSync(join(parent, "data-"))
  await cp(inject("pgliteTemplateDir"), dir, { recursive: true })
  return dir
}

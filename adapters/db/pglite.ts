import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { Effect, Layer } from "effect"
import { DataDirInUse } from "./dataDirInUse.ts"
import { poolLayer } from "./pool.ts"

/**
 * Opens PGlite with the extensions the migrations use; `loadDataDir` starts a new data dir from a dump (tests). A data
 * dir on disk is the user's only: the directory is made 0700 before PGlite writes to it, and what PGlite wrote with
 * its own modes (0666 for the files it unpacks) is made 0700 (directories) and 0600 (files) once it is open.
 */
export const openPglite = async (dataDir: string | undefined, loadDataDir?: Blob) => {
  const onDisk = dataDir !== undefined && dataDir !== "" && !dataDir.includes("://")
  if (onDisk) ownerOnly(dataDir)
  const db = await PGlite.create(dataDir, {
    extensions: { btree_gist },
    ...(loadDataDir === undefined ? {} : { loadDataDir })
  })
  if (onDisk) ownerOnly(dataDir)
  return db
}

/**
 * Makes a data dir readable and writable by its owner only (0700), and, once it is a database's (it holds PG_VERSION),
 * everything in it (0700 directories, 0600 files): never the contents of a folder that is not one.
 */
export const ownerOnly = (dir: string) => {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  if (!existsSync(join(dir, "PG_VERSION"))) return chmodSync(dir, 0o700)
  const walk = (path: string) => {
    const stat = lstatSync(path)
    if (stat.isSymbolicLink()) return
    if (stat.isDirectory()) {
      if ((stat.mode & 0o777) !== 0o700) chmodSync(path, 0o700)
      for (const name of readdirSync(path)) walk(join(path, name))
    } else if ((stat.mode & 0o777) !== 0o600) chmodSync(path, 0o600)
  }
  walk(dir)
}

/**
 * Embedded Postgres: PGlite served on a loopback port and reached through the same pg driver as a real
 * server, so every query takes the same code path. PGlite is one session, so the pool holds one connection.
 * `open` makes the instance; `release` (default: close it) runs when the layer closes.
 */
export const PgliteServed = (
  open: () => Promise<PGlite>,
  release: (db: PGlite) => Promise<void> = (db) => db.close()
) =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      const db = yield* Effect.acquireRelease(Effect.promise(open), (db) =>
        Effect.promise(() => release(db)).pipe(Effect.ignore)
      )
      const server = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1" })
      yield* Effect.acquireRelease(
        Effect.promise(() => server.start()),
        () => Effect.promise(() => server.stop())
      )
      const port = Number(server.getServerConn().split(":").pop())
      return poolLayer("pglite", { host: "127.0.0.1", port, database: "postgres", user: "postgres", max: 1 })
    })
  )

/** PGlite in dataDir; undefined (or empty) keeps the database in memory. One process holds a data dir at a time (holdDataDir). */
export const PgliteLive = (dataDir: string | undefined) =>
  dataDir === undefined || dataDir === ""
    ? PgliteServed(() => openPglite(undefined))
    : Layer.provideMerge(
        PgliteServed(
          () => openPglite(dataDir),
          // What PGlite wrote while it ran (a file it reopened, a new relation), the owner's only again.
          (db) => db.close().finally(() => ownerOnly(dataDir))
        ),
        Layer.scopedDiscard(holdDataDir(dataDir))
      )

export { DataDirInUse }

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

/**
 * Marks the data dir as held by this process (DATA_DIR/engine.pid, removed on close) and refuses to open one that a
 * live process holds: PGlite is a single-process database, and a second writer would be lost or lie (a CLI's key the
 * running server never sees).
 */
export const holdDataDir = (dataDir: string) =>
  Effect.acquireRelease(
    Effect.gen(function* () {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 })
      const file = join(dataDir, "engine.pid")
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          writeFileSync(file, String(process.pid), { flag: "wx", mode: 0o600 })
          return file
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e
        }
        const holder = Number(readFileSync(file, "utf8").trim())
        if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) {
          return yield* new DataDirInUse({
            message:
              `the embedded database in ${dataDir} is in use by process ${holder} (a running booking-engine?): ` +
              "stop it first, or send the command to it through the admin API (BOOKING_ENGINE_URL and ADMIN_TOKEN)"
          })
        }
        rmSync(file, { force: true })
      }
      return yield* new DataDirInUse({
        message: `could not take ${file}: another process is starting on the same DATA_DIR`
      })
    }),
    (file) =>
      Effect.sync(() => {
        try {
          if (readFileSync(file, "utf8").trim() === String(process.pid)) rmSync(file, { force: true })
        } catch {
          // already gone
        }
      })
  )

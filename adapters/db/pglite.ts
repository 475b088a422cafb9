import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { Data, Effect, Layer } from "effect"
import { poolLayer } from "./pool.ts"

/** Opens PGlite with the extensions the migrations use; `loadDataDir` starts a new data dir from a dump (tests). */
export const openPglite = (dataDir: string | undefined, loadDataDir?: Blob) =>
  PGlite.create(dataDir, { extensions: { btree_gist }, ...(loadDataDir === undefined ? {} : { loadDataDir }) })

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
        PgliteServed(() => openPglite(dataDir)),
        Layer.scopedDiscard(holdDataDir(dataDir))
      )

/** Another process (a running server, or a CLI command) holds the embedded database. */
export class DataDirInUse extends Data.TaggedError("DataDirInUse")<{ readonly message: string }> {}

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
      mkdirSync(dataDir, { recursive: true })
      const file = join(dataDir, "engine.pid")
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          writeFileSync(file, String(process.pid), { flag: "wx" })
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

import { PGlite } from "@electric-sql/pglite"
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { Effect, Layer } from "effect"
import { poolLayer } from "./pool.ts"

/** Opens PGlite with the extensions the migrations use; `loadDataDir` starts a new data dir from a dump (tests). */
export const openPglite = (dataDir: string | undefined, loadDataDir?: Blob) =>
  PGlite.create(dataDir, { extensions: { btree_gist }, ...(loadDataDir === undefined ? {} : { loadDataDir }) })

/**
 * Embedded Postgres: PGlite served on a loopback port and reached through the same pg driver as a real
 * server, so every query takes the same code path. PGlite is one session, so the pool holds one connection.
 * `open` makes the instance, closed with the layer.
 */
export const PgliteServed = (open: () => Promise<PGlite>) =>
  Layer.unwrapScoped(Effect.gen(function*() {
    const db = yield* Effect.acquireRelease(
      Effect.promise(open),
      (db) => Effect.promise(() => db.close()).pipe(Effect.ignore)
    )
    const server = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1" })
    yield* Effect.acquireRelease(Effect.promise(() => server.start()), () => Effect.promise(() => server.stop()))
    const port = Number(server.getServerConn().split(":").pop())
    return poolLayer("pglite", { host: "127.0.0.1", port, database: "postgres", user: "postgres", max: 1 })
  }))

/** PGlite in dataDir; undefined keeps the database in memory. */
export const PgliteLive = (dataDir: string | undefined) => PgliteServed(() => openPglite(dataDir))

import { PGlite } from "@electric-sql/pglite"
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { Effect, Layer } from "effect"
import { poolLayer } from "./pool.ts"

/**
 * Embedded Postgres: PGlite served on a loopback port and reached through the same pg driver as a real
 * server, so every query takes the same code path. PGlite is one session, so the pool holds one connection.
 * dataDir undefined keeps the database in memory (tests).
 */
export const PgliteLive = (dataDir: string | undefined) =>
  Layer.unwrapScoped(Effect.gen(function*() {
    const db = yield* Effect.acquireRelease(
      Effect.promise(() => PGlite.create(dataDir, { extensions: { btree_gist } })),
      (db) => Effect.promise(() => db.close()).pipe(Effect.ignore)
    )
    const server = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1" })
    yield* Effect.acquireRelease(Effect.promise(() => server.start()), () => Effect.promise(() => server.stop()))
    const port = Number(server.getServerConn().split(":").pop())
    return poolLayer("pglite", { host: "127.0.0.1", port, database: "postgres", user: "postgres", max: 1 })
  }))

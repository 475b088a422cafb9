import { writeFileSync } from "node:fs"
import { rm } from "node:fs/promises"
import { join } from "node:path"
import { freePort } from "./ports.ts"
import { requireBinary, serverDir, startServer, unprivileged } from "./process.ts"

const PGBOUNCER = "/usr/sbin/pgbouncer"

export interface Pooler {
  readonly port: number
  /** `url` with its host and port replaced by the pooler's. */
  readonly through: (url: string) => string
  readonly log: () => string
  readonly dispose: () => Promise<void>
}

export interface PoolerOptions {
  /** Server connections per database (default_pool_size): 20. */
  readonly poolSize?: number
  /** Server connections at most over every database (max_user_connections): none. */
  readonly serverCap?: number
}

/**
 * PgBouncer on a free loopback port in transaction mode in front of the Postgres at host:port (trust auth, every
 * database). Fails, never skips, when the binary is missing or it does not come up.
 */
export const startPgbouncer = async (
  host = "127.0.0.1",
  port = 5432,
  { poolSize = 20, serverCap }: PoolerOptions = {}
): Promise<Pooler> => {
  requireBinary(PGBOUNCER, "a PgBouncer", "pgbouncer")
  const dir = await serverDir("pgbouncer-")
  const listen = await freePort()
  const ini = join(dir, "pgbouncer.ini")
  writeFileSync(join(dir, "users.txt"), '"postgres" ""\n')
  writeFileSync(
    ini,
    [
      "[databases]",
      `* = host=${host} port=${port}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${listen}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${join(dir, "users.txt")}`,
      "pool_mode = transaction",
      "max_client_conn = 1000",
      `default_pool_size = ${poolSize}`,
      ...(serverCap === undefined ? [] : [`max_user_connections = ${serverCap}`, "server_idle_timeout = 10"]),
      `logfile = ${join(dir, "pgbouncer.log")}`,
      "admin_users = postgres",
      ""
    ].join("\n")
  )
  const server = await startServer(PGBOUNCER, [ini], listen, "pgbouncer", unprivileged() ?? {}).catch(async (e) => {
    await rm(dir, { recursive: true, force: true })
    throw e
  })
  const dispose = async () => {
    await server.stop()
    await rm(dir, { recursive: true, force: true })
  }
  return {
    port: listen,
    through: (url) => {
      const u = new URL(url)
      u.hostname = "127.0.0.1"
      u.port = String(listen)
      return u.toString()
    },
    log: server.output,
    dispose
  }
}

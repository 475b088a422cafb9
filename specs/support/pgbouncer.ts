import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { chownSync, existsSync, writeFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort, listening, until } from "./ports.ts"

const PGBOUNCER = "/usr/sbin/pgbouncer"

/** Servers that refuse to run as root (PgBouncer, Postgres) run as the postgres user when the tests are root. */
export const unprivileged = (): { uid: number; gid: number } | undefined => {
  if (process.getuid?.() !== 0) return undefined
  const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim())
  const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim())
  return { uid, gid }
}

/** A temp dir the servers may write (owned by the user they run as). */
export const serverDir = async (prefix: string) => {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  const as = unprivileged()
  if (as !== undefined) chownSync(dir, as.uid, as.gid)
  return dir
}

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
  if (!existsSync(PGBOUNCER))
    throw new Error(`${PGBOUNCER} is missing: this test runs a PgBouncer of its own (apt-get install pgbouncer)`)
  const dir = await serverDir("pgbouncer-")
  const listen = await freePort()
  const as = unprivileged()
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
  let out = ""
  const child: ChildProcess = spawn(PGBOUNCER, [ini], { stdio: ["ignore", "pipe", "pipe"], ...(as ?? {}) })
  child.stdout?.on("data", (d) => (out += d))
  child.stderr?.on("data", (d) => (out += d))
  const dispose = async () => {
    if (child.exitCode === null && child.signalCode === null)
      await new Promise<void>((resolve) => {
        child.once("exit", () => resolve())
        child.kill("SIGKILL")
      })
    await rm(dir, { recursive: true, force: true })
  }
  try {
    await until(() => listening(listen), 10_000, `pgbouncer on ${listen} (${out.slice(-300)})`)
  } catch (e) {
    await dispose()
    throw e
  }
  return {
    port: listen,
    through: (url) => {
      const u = new URL(url)
      u.hostname = "127.0.0.1"
      u.port = String(listen)
      return u.toString()
    },
    log: () => out,
    dispose
  }
}

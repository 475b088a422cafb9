import { appendFileSync } from "node:fs"
import { rm } from "node:fs/promises"
import { join } from "node:path"
import pg from "pg"
import { freePort, until } from "./ports.ts"
import { requireBinary, runToExit, serverDir, unprivileged } from "./process.ts"

const BIN = "/usr/lib/postgresql/15/bin"

export interface PgPair {
  readonly primaryPort: number
  readonly standbyPort: number
  /** libpq's multi-host URL of the database on both, read-write wanted. */
  readonly url: string
  readonly urlOf: (port: number) => string
  /** pg_ctl stop -m immediate of the primary: a crash, nothing flushed on the way out. */
  readonly crashPrimary: () => Promise<void>
  readonly promoteStandby: () => Promise<void>
  readonly dispose: () => Promise<void>
}

/**
 * A primary and a streaming standby of Debian's PostgreSQL 15 on free loopback ports, in a temp dir of their own
 * (initdb, pg_basebackup), the standby synchronous (synchronous_standby_names), so a commit answered is on both.
 * Fails, never skips, when the binaries are missing.
 */
export const startPgPair = async (database = "booking"): Promise<PgPair> => {
  for (const b of ["initdb", "pg_ctl", "pg_basebackup"]) requireBinary(join(BIN, b), "Postgres servers", "postgresql")
  const root = await serverDir("pg-pair-")
  const as = unprivileged() ?? {}
  const sh = (bin: string, args: Array<string>) => runToExit(join(BIN, bin), args, { ...as, cwd: root })
  const [primaryPort, standbyPort] = [await freePort(), await freePort()]
  const primary = join(root, "primary")
  const standby = join(root, "standby")
  const stop = async (dir: string) => {
    await sh("pg_ctl", ["-D", dir, "-m", "immediate", "-w", "stop"]).catch(() => {})
  }
  const dispose = async () => {
    await stop(primary)
    await stop(standby)
    await rm(root, { recursive: true, force: true })
  }
  try {
    await sh("initdb", ["-D", primary, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C.UTF-8"])
    appendFileSync(
      join(primary, "postgresql.conf"),
      [
        "listen_addresses = '127.0.0.1'",
        `port = ${primaryPort}`,
        `unix_socket_directories = '${root}'`,
        "wal_level = replica",
        "max_wal_senders = 5",
        "max_connections = 100",
        "synchronous_standby_names = 'standby1'",
        "synchronous_commit = on",
        "fsync = off",
        "full_page_writes = off",
        ""
      ].join("\n")
    )
    await sh("pg_ctl", ["-D", primary, "-l", join(root, "primary.log"), "-w", "start"])
    const admin = new pg.Client({ host: "127.0.0.1", port: primaryPort, user: "postgres", database: "postgres" })
    await admin.connect()
    // No standby yet: this session's commit must not wait for it.
    await admin.query("set synchronous_commit = local")
    await admin.query(`create database ${database}`)
    await admin.end()
    await sh("pg_basebackup", [
      "-h",
      "127.0.0.1",
      "-p",
      String(primaryPort),
      "-U",
      "postgres",
      "-D",
      standby,
      "-X",
      "stream",
      "-R",
      "--checkpoint=fast"
    ])
    appendFileSync(
      join(standby, "postgresql.auto.conf"),
      `port = ${standbyPort}\nprimary_conninfo = 'host=127.0.0.1 port=${primaryPort} user=postgres application_name=standby1'\n`
    )
    await sh("pg_ctl", ["-D", standby, "-l", join(root, "standby.log"), "-w", "start"])
    await until(
      async () => {
        const c = new pg.Client({ host: "127.0.0.1", port: primaryPort, user: "postgres", database: "postgres" })
        await c.connect()
        try {
          const r = await c.query("select sync_state from pg_stat_replication where application_name = 'standby1'")
          return r.rows[0]?.sync_state === "sync"
        } finally {
          await c.end()
        }
      },
      30_000,
      "the standby streaming synchronously"
    )
  } catch (e) {
    await dispose()
    throw e
  }
  const urlOf = (port: number) => `postgres://postgres@127.0.0.1:${port}/${database}`
  return {
    primaryPort,
    standbyPort,
    url: `postgres://postgres@127.0.0.1:${primaryPort},127.0.0.1:${standbyPort}/${database}?target_session_attrs=read-write`,
    urlOf,
    crashPrimary: () => stop(primary),
    // As a failover manager does (Patroni, pg_auto_failover): the new primary has no synchronous standby to wait for.
    promoteStandby: async () => {
      await sh("pg_ctl", ["-D", standby, "-w", "promote"])
      const c = new pg.Client({ host: "127.0.0.1", port: standbyPort, user: "postgres", database: "postgres" })
      await c.connect()
      await c.query("alter system set synchronous_standby_names = ''")
      await c.query("select pg_reload_conf()")
      await c.end()
    },
    dispose
  }
}

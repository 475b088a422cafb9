import pg from "pg"

/**
 * libpq's multi-host URL, which node-pg does not read: `postgres://u@h1:5432,h2:5432/db?target_session_attrs=read-write`
 * (what Patroni and pg_auto_failover give applications). Every connection, the pool's and the LISTEN one, goes to the
 * host that accepts writes, found at connect time: the last one that did is tried first, and when it does not (down,
 * or read-only after a failover) every host is asked at once, and the first in the URL's order that accepts writes
 * wins. A connection that meets a read-only host later (25006, a primary demoted under it) is ended, not reused.
 */

export interface Host {
  readonly host: string
  readonly port: number
}

const MULTI = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/i

/** The hosts of a URL (one or several, comma-separated), and the URL of each. */
export const hostsOf = (url: string): { hosts: Array<Host>; urlOf: (h: Host) => string; readWrite: boolean } => {
  const m = MULTI.exec(url)
  if (m === null) return { hosts: [], urlOf: () => url, readWrite: false }
  const [, scheme, user = "", list, rest] = m
  const hosts = list.split(",").map((entry) => {
    const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry)
    if (bracket !== null) return { host: bracket[1], port: Number(bracket[2] ?? 5432) }
    const [host, port] = entry.split(":")
    return { host: host || "127.0.0.1", port: Number(port || 5432) }
  })
  const q = rest.indexOf("?")
  const params = new URLSearchParams(q < 0 ? "" : rest.slice(q + 1))
  const attrs = params.get("target_session_attrs") ?? "any"
  params.delete("target_session_attrs")
  const path = q < 0 ? rest : rest.slice(0, q)
  const query = params.toString()
  const urlOf = (h: Host) =>
    `${scheme}${user}${h.host.includes(":") ? `[${h.host}]` : h.host}:${h.port}${path}${query ? `?${query}` : ""}`
  return { hosts, urlOf, readWrite: attrs === "read-write" || attrs === "primary" }
}

/** Whether a URL names several hosts or asks for the host that accepts writes: then the connector below serves it. */
export const needsConnector = (url: string) => {
  const { hosts, readWrite } = hostsOf(url)
  return hosts.length > 1 || readWrite
}

export const readOnlyError = (at: Host) =>
  Object.assign(new Error(`the database at ${at.host}:${at.port} is read-only (a standby): no host accepts writes`), {
    code: "25006"
  })

/** Asks one host whether it accepts writes, on a connection of its own. */
const writable = async (url: string, ms: number) => {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: ms })
  c.on("error", () => {})
  try {
    await c.connect()
    const r = await c.query<{ transaction_read_only: string }>("show transaction_read_only")
    return r.rows[0]?.transaction_read_only === "off"
  } finally {
    c.end().catch(() => {})
  }
}

/** The writable host among `hosts`, remembered until a connection finds it is not. */
export const makeLocator = (hosts: ReadonlyArray<Host>, urlOf: (h: Host) => string, probeMs = 2_000) => {
  let known: Host | undefined = hosts.length === 1 ? hosts[0] : undefined
  let finding: Promise<Host> | undefined
  const find = () =>
    (finding ??= (async () => {
      const answers = hosts.map((h) => writable(urlOf(h), probeMs).catch(() => false))
      for (let i = 0; i < hosts.length; i++) if (await answers[i]) return hosts[i]
      throw Object.assign(new Error(`no database host accepts writes (${hosts.map((h) => `${h.host}:${h.port}`)})`), {
        code: "ECONNREFUSED"
      })
    })().finally(() => (finding = undefined)))
  return {
    current: async () => {
      if (known === undefined) known = await find()
      return known
    },
    /** The host stopped serving writes (refused, ended, or read-only): the next connection asks every host again. */
    forget: (h: Host) => {
      if (known === h && hosts.length > 1) known = undefined
    }
  }
}
export type Locator = ReturnType<typeof makeLocator>

type Callback = (err?: Error | null) => void
type Internals = {
  query: (...args: Array<unknown>) => unknown
  connect: (callback?: Callback) => Promise<void> | undefined
  host: string
  port: number
}

/**
 * A pg Client class (over `base`, such as timeouts.ts's) whose connect goes to the locator's host and checks there that
 * it accepts writes; a query that meets a read-only host (25006) ends the connection, so the pool never hands it out
 * again, and the locator looks again.
 */
export const failoverClient = (locator: Locator, base: typeof pg.Client = pg.Client): typeof pg.Client =>
  class FailoverClient extends base {
    at: Host | undefined
    constructor(config?: string | pg.ClientConfig) {
      super(config)
      const self = this as unknown as Internals
      const query = self.query.bind(this)
      self.query = (...args: Array<unknown>) => {
        const at = args.findIndex((a) => typeof a === "function")
        if (at < 0) return query(...args)
        const callback = args[at] as (err: Error | null | undefined, result?: unknown) => void
        args[at] = (err: Error | null | undefined, result?: unknown) => {
          if (err !== null && err !== undefined && (err as { code?: string }).code === "25006") this.readOnly()
          callback(err, result)
        }
        return query(...args)
      }
      const connect = (base.prototype.connect as Internals["connect"]).bind(this)
      self.connect = (callback?: Callback) => {
        const done = (async () => {
          const h = await locator.current()
          this.at = h
          self.host = h.host
          self.port = h.port
          await new Promise<void>((resolve, reject) => connect((err) => (err ? reject(err) : resolve())))
          const r = await new Promise<pg.QueryResult<{ transaction_read_only: string }>>((resolve, reject) =>
            query("show transaction_read_only", (err: Error | null, res: pg.QueryResult) =>
              err ? reject(err) : resolve(res)
            )
          )
          if (r.rows[0]?.transaction_read_only !== "off") {
            locator.forget(h)
            this.end().catch(() => {})
            throw readOnlyError(h)
          }
        })().catch((err: unknown) => {
          if (this.at !== undefined && !(err instanceof pg.DatabaseError)) locator.forget(this.at)
          throw err
        })
        if (callback === undefined) return done
        done.then(
          () => callback(),
          (err: Error) => callback(err)
        )
        return undefined
      }
    }
    readOnly() {
      if (this.at !== undefined) locator.forget(this.at)
      this.end().catch(() => {})
    }
  }

/**
 * The pg settings and Client class for a URL: itself and `base` for one host; for libpq's multi-host form, the first
 * host's URL (user, database, parameters) with a Client that goes to the host accepting writes (one locator per URL).
 */
export const connectorFor = (url: string, base: typeof pg.Client = pg.Client) => {
  if (!needsConnector(url)) return { connectionString: url, Client: base }
  const { hosts, urlOf } = hostsOf(url)
  return { connectionString: urlOf(hosts[0]), Client: failoverClient(makeLocator(hosts, urlOf), base) }
}

import type { SqlClient } from "@effect/sql"
import { Effect, Runtime } from "effect"
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client"
import type { PoolStats } from "../../engine/ports/PoolStats.ts"
import { bookingCounts, deliveryOutcomes, outboxBacklog } from "../../engine/store/probes.ts"

/**
 * What operators scrape at GET /metrics (Prometheus text format, Bearer ADMIN_TOKEN): requests by operation and
 * status with their latency, and gauges read at scrape time from the pool and the database (the outbox backlogs,
 * webhook deliveries, bookings by status, holds lapsed). One registry per engine instance.
 */
/** What the listener counts now (transports/http/server.ts): requests served, waiting for a turn, parked in memory. */
export interface Load {
  readonly working: number
  readonly queued: number
  readonly parked: number
  /** Requests whose body is still arriving (no turn yet). */
  readonly reading?: number
}

export const makeMetrics = (
  sql: SqlClient.SqlClient,
  pool: PoolStats["Type"] | undefined,
  runtime: Runtime.Runtime<never>,
  load?: () => Load
) => {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const requests = new Counter({
    name: "http_requests_total",
    help: "Requests answered, by operation and status",
    labelNames: ["operation", "status"],
    registers: [registry]
  })
  const latency = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer, by operation",
    labelNames: ["operation"],
    registers: [registry],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]
  })
  new Gauge({
    name: "db_pool_connections",
    help: "Database pool connections by state",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      if (pool === undefined) return
      const now = pool.read()
      this.set({ state: "total" }, now.total)
      this.set({ state: "idle" }, now.idle)
      this.set({ state: "waiting" }, now.waiting)
    }
  })
  if (load !== undefined) {
    new Gauge({
      name: "http_requests_in_progress",
      help: "Requests open now: working (counted in MAX_INFLIGHT), queued (waiting for a turn), parked (waiting in memory at a busy time), reading (the body still arriving, no turn yet)",
      labelNames: ["state"],
      registers: [registry],
      collect() {
        const now = load()
        this.set({ state: "working" }, now.working)
        this.set({ state: "queued" }, now.queued)
        this.set({ state: "parked" }, now.parked)
        this.set({ state: "reading" }, now.reading ?? 0)
      }
    })
  }
  const fromDatabase = <Row extends Record<string, unknown>>(query: Effect.Effect<ReadonlyArray<Row>, unknown>) =>
    Runtime.runPromise(runtime)(query.pipe(Effect.orElseSucceed(() => [] as ReadonlyArray<Row>)))
  new Gauge({
    name: "bookings",
    help: "Bookings by status (held ones split by whether they still keep their place)",
    labelNames: ["status"],
    registers: [registry],
    async collect() {
      const rows = await fromDatabase(bookingCounts(sql))
      this.reset()
      for (const r of rows) this.set({ status: r.status }, r.n)
    }
  })
  new Gauge({
    name: "outbox_backlog",
    help: "Work waiting: events not yet relayed to the bus, mail not yet sent",
    labelNames: ["outbox"],
    registers: [registry],
    async collect() {
      const [r] = await fromDatabase(outboxBacklog(sql))
      this.set({ outbox: "events" }, r?.events ?? 0)
      this.set({ outbox: "mail" }, r?.mail ?? 0)
    }
  })
  new Gauge({
    name: "webhook_deliveries",
    help: "Webhook delivery attempts by outcome (2xx delivered, anything else failed)",
    labelNames: ["outcome"],
    registers: [registry],
    async collect() {
      const [r] = await fromDatabase(deliveryOutcomes(sql))
      this.set({ outcome: "delivered" }, r?.ok ?? 0)
      this.set({ outcome: "failed" }, r?.failed ?? 0)
    }
  })
  return {
    observe: (operation: string, status: number, seconds: number) => {
      requests.inc({ operation, status: String(status) })
      latency.observe({ operation }, seconds)
    },
    scrape: () => registry.metrics(),
    contentType: registry.contentType
  }
}
export type Metrics = ReturnType<typeof makeMetrics>

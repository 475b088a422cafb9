/**
 * Events and webhooks on the real engine (the layers `npm start` builds, system clock) over a fresh Postgres
 * database and a real NATS JetStream: commit -> webhook received latency on loopback, deliveries/s to 10
 * endpoints, relay events/s to JetStream. Prints a JSON object and writes bench/results/webhooks.json.
 *
 * Env: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test; a fresh database is made and dropped),
 * NATS_URL (default nats://127.0.0.1:4222). Run: npx tsx bench/webhooks.ts
 */

import { type ChildProcess, fork } from "node:child_process"
import { randomBytes, randomInt } from "node:crypto"
import { mkdir, writeFile } from "node:fs/promises"
import os from "node:os"
import { HttpServer } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime, Option } from "effect"
import pg from "pg"
import { PostgresLive } from "../adapters/db/postgres.ts"
import { AppLive, NodeServerLive } from "../app/layers.ts"
import { Events } from "../engine/services/Events.ts"
import { ADMIN_TOKEN, testConfig } from "../specs/support/config.ts"
import { readStream } from "../specs/support/nats.ts"
import { sleep, waitFor } from "../specs/support/receiver.ts"

const server = new URL(process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test")
const natsUrl = process.env.NATS_URL || "nats://127.0.0.1:4222"
const database = `be_bench_${randomBytes(5).toString("hex")}`
const dbUrl = Object.assign(new URL(server.toString()), { pathname: `/${database}` }).toString()
const admin = async (text: string) => {
  const client = new pg.Client({ connectionString: server.toString() })
  await client.connect()
  await client.query(text).finally(() => client.end())
}

const config = testConfig({
  databaseUrl: Option.some(dbUrl),
  natsUrl: Option.some(natsUrl),
  clock: "system",
  webhookAllowInsecure: true
})
const appLayer = AppLive(config, PostgresLive(dbUrl, 40)).pipe(
  Layer.provideMerge(NodeServerLive({ port: 0, host: "127.0.0.1" })),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

type Hit = { readonly id: number; readonly t: number }

/** Receivers in a child process (bench/receivers.ts). */
const receiversProcess = async (servers: number) => {
  const child: ChildProcess = fork(new URL("./receivers.ts", import.meta.url), [], { execArgv: ["--import", "tsx"] })
  const ask = <A>(message: object) =>
    new Promise<A>((resolve) => {
      child.once("message", (reply) => resolve(reply as A))
      child.send(message)
    })
  const { urls } = await ask<{ urls: Array<string> }>({ servers })
  const hits = async () => (await ask<{ hits: Array<Array<Hit>> }>({ stats: true })).hits
  return { urls, hits, close: () => child.kill() }
}
const epochNow = () => performance.timeOrigin + performance.now()

const percentile = (sorted: Array<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits

const main = async () => {
  await admin(`create database ${database}`)
  const runtime = ManagedRuntime.make(appLayer)
  const receivers = await receiversProcess(11)
  try {
    const http = await runtime.runPromise(HttpServer.HttpServer)
    const base = `http://127.0.0.1:${http.address._tag === "TcpAddress" ? http.address.port : 0}`
    // The EVENTS stream dedupes on event id across every database that shares it: start ids in a fresh range.
    await runtime.runPromise(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql`select setval('events_id_seq', ${randomInt(2 ** 40) * 1000})`)
    )
    const call = async (key: string, method: string, path: string, body: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body)
      })
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
      return res.json() as Promise<{ org: { id: string }; api_key: { key: string } }>
    }
    const newOrg = async () => {
      const made = await call(ADMIN_TOKEN, "POST", "/admin/v1/orgs", {
        name: "Bench",
        timezone: "UTC",
        currency: "EUR"
      })
      return { id: made.org.id, key: made.api_key.key }
    }
    const hook = (key: string, index: number) =>
      call(key, "POST", "/api/v1/webhooks", { url: receivers.urls[index], events: ["booking.confirmed"] })
    const counts = async () => (await receivers.hits()).map((h) => h.length)
    const commit = (orgId: string, perTx: number, txs = 1) =>
      runtime.runPromise(
        Effect.flatMap(Events, (events) =>
          Effect.forEach(
            Array.from({ length: txs }),
            () =>
              events.append(
                orgId,
                Array.from({ length: perTx }, (_, n) => ({
                  type: "booking.confirmed",
                  data: { n, reference: "BENCH" }
                }))
              ),
            { discard: true }
          )
        )
      )

    // 1. commit -> received, one event at a time (unloaded latency)
    const a = await newOrg()
    await hook(a.key, 10)
    await commit(a.id, 1)
    await waitFor(async () => (await counts())[10] === 1, 10_000, "warm-up delivery")
    const committed: Array<number> = []
    for (let i = 0; i < 300; i++) {
      await commit(a.id, 1)
      committed.push(epochNow())
      await sleep(10 + randomInt(10))
    }
    await waitFor(async () => (await counts())[10] === 301, 20_000, "300 deliveries")
    const single = (await receivers.hits())[10]
    const latencies = committed.map((t, i) => single[i + 1].t - t).sort((x, y) => x - y)

    // 2. deliveries/s: 1,000 events to 10 endpoints
    const b = await newOrg()
    for (let i = 0; i < 10; i++) await hook(b.key, i)
    const started = epochNow()
    await commit(b.id, 100, 10)
    await waitFor(async () => (await counts()).slice(0, 10).every((n) => n >= 1_000), 120_000, "10,000 deliveries")
    const ten = (await receivers.hits()).slice(0, 10)
    const deliverySeconds = (Math.max(...ten.map((h) => h[999].t)) - started) / 1000
    const ordered = ten.every((h) => h.length === 1_000 && h.every((x, i) => i === 0 || x.id > h[i - 1].id))

    // 3. relay: 20,000 events committed in one transaction, until every one is on JetStream
    const c = await newOrg()
    await runtime.runPromise(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.flatMap(Events, (events) =>
          Effect.forEach(
            [1, 2, 3, 4],
            () =>
              events.append(
                c.id,
                Array.from({ length: 5_000 }, (_, n) => ({ type: "booking.confirmed", data: { n } }))
              ),
            { discard: true }
          )
        ).pipe(sql.withTransaction)
      )
    )
    const relayStarted = performance.now()
    const unrelayed = () =>
      runtime.runPromise(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) =>
            sql<{
              n: number
            }>`select count(*)::int as n from relay_queue q join events e on e.id = q.event_id where e.org_id = ${c.id}`
        )
      )
    await waitFor(async () => (await unrelayed())[0].n === 0, 120_000, "relay of 20,000 events")
    const relaySeconds = (performance.now() - relayStarted) / 1000
    const onStream = await readStream(natsUrl, `events.${c.id}.>`)

    const result = {
      at: new Date().toISOString(),
      machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? "", node: process.version },
      latency_ms: {
        events: latencies.length,
        p50: round(percentile(latencies, 50)),
        p99: round(percentile(latencies, 99)),
        max: round(latencies.at(-1) ?? 0),
        target_p99: 250
      },
      deliveries: {
        endpoints: 10,
        events: 1_000,
        deliveries: 10_000,
        seconds: round(deliverySeconds, 2),
        per_second: Math.round(10_000 / deliverySeconds),
        in_order: ordered,
        target_per_second: 2_000
      },
      relay: {
        events: 20_000,
        seconds: round(relaySeconds, 2),
        per_second: Math.round(20_000 / relaySeconds),
        on_stream: onStream.length,
        target_per_second: 5_000
      }
    }
    const verdict = {
      latency: result.latency_ms.p99 <= 250,
      deliveries: result.deliveries.per_second >= 2_000,
      relay: result.relay.per_second >= 5_000 && onStream.length === 20_000
    }
    const out = JSON.stringify({ ...result, verdict }, null, 2)
    console.log(out)
    await mkdir(new URL("./results/", import.meta.url), { recursive: true })
    await writeFile(new URL("./results/webhooks.json", import.meta.url), `${out}\n`)
  } finally {
    await runtime.dispose()
    receivers.close()
    await admin(`drop database if exists ${database} with (force)`)
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err)
    process.exit(1)
  }
)

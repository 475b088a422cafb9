/**
 * The flash bench's stack floor: bench/flashFloorPg.mjs's work, to the statement and the answer, served by the stack
 * the engine is written in and nothing of the engine. effect 3 and @effect/platform's HttpRouter served by
 * @effect/platform-node's NodeHttpServer (a node:http server made with the engine's options: 32 KiB of headers, the
 * request and headers timeouts, the listen backlog of 4,096), each POST's body read and decoded with
 * HttpServerRequest.schemaBodyJson, and @effect/sql-pg's PgClient with a pool of 20 (the engine's DB_POOL_SIZE) over a
 * table of its own, one row per time (capacity, booked). One conditional UPDATE per guest (`booked = booked + 1 where
 * booked < capacity`): a row back is a place (201), none means the time is full, and from then on every POST is
 * answered 409 sold_out from memory without the database. A GET (the widget's poll) is answered from what it knows
 * (places left after the last place it gave). No customer, no booking row, no key, no log, no middleware: a floor,
 * not a product. `node bench/flashFloorEffect.mjs <port> <database url>`; started by bench/flash.ts (build
 * "floorfx"), which reads `select booked from floor_times` after the crowd.
 */
import { createServer } from "node:http"
import { HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted, Schema } from "effect"

const CAP = 100
let full = false
let left = CAP
const soldOut = { error: { code: "sold_out", message: "this time has no places left" } }
const Input = Schema.Struct({ session_id: Schema.optional(Schema.String) })

const book = Effect.gen(function* () {
  const input = yield* HttpServerRequest.schemaBodyJson(Input)
  if (full) return HttpServerResponse.unsafeJson(soldOut, { status: 409 })
  const sql = yield* PgClient.PgClient
  const rows =
    yield* sql`update floor_times set booked = booked + 1 where id = ${"s"} and booked < capacity returning booked, capacity`
  if (rows.length === 0) {
    full = true
    return HttpServerResponse.unsafeJson(soldOut, { status: 409 })
  }
  left = Math.min(left, rows[0].capacity - rows[0].booked)
  return HttpServerResponse.unsafeJson(
    { data: { id: `b${rows[0].booked}`, session_id: input.session_id ?? "s" } },
    { status: 201 }
  )
}).pipe(
  Effect.catchTags({
    RequestError: () => bad,
    ParseError: () => bad,
    SqlError: () =>
      Effect.succeed(
        HttpServerResponse.unsafeJson({ error: { code: "unavailable", message: "database" } }, { status: 503 })
      )
  })
)
const bad = Effect.succeed(
  HttpServerResponse.unsafeJson({ error: { code: "invalid_request", message: "body is not JSON" } }, { status: 400 })
)

const router = HttpRouter.empty.pipe(
  HttpRouter.get(
    "*",
    Effect.sync(() => HttpServerResponse.unsafeJson({ data: [{ session_id: "s", remaining: left }] }))
  ),
  HttpRouter.post("*", book)
)

const server = NodeHttpServer.layer(
  () => createServer({ maxHeaderSize: 32 * 1024, requestTimeout: 60_000, headersTimeout: 30_000 }),
  { port: Number(process.argv[2]), host: "127.0.0.1", backlog: 4096 }
)
const database = PgClient.layer({ url: Redacted.make(process.argv[3]), maxConnections: 20 })

const main = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  yield* sql`create table if not exists floor_times (id text primary key, capacity int not null, booked int not null)`
  yield* sql`insert into floor_times values ('s', ${CAP}, 0) on conflict (id) do update set capacity = excluded.capacity, booked = 0`
  yield* HttpServer.serveEffect(router)
  process.send?.("ready")
  return yield* Effect.never
}).pipe(Effect.scoped, Effect.provide(Layer.mergeAll(server, database)))

NodeRuntime.runMain(main)

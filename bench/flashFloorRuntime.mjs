/**
 * The flash bench's runtime floor: bench/flashFloorPg.mjs's work, to the statement and the answer, shaped as the
 * engine serves a request (transports/http/front.ts and dispatch.ts): a node:http server of its own (the engine's
 * options: 32 KiB of headers, the request and headers timeouts, the listen backlog of 4,096), the body read by hand,
 * then one Effect per request run on the app's runtime (Runtime.runPromiseExit) that decodes the body with Schema and
 * sends the UPDATE through @effect/sql-pg's PgClient over a pg Pool of 20 (the engine's DB_POOL_SIZE, as
 * adapters/db/pool.ts builds it). So it is effect and sql-pg without @effect/platform's server: next to
 * bench/flashFloorEffect.mjs (build "floorfx", the platform's server) it tells the one from the other. A row back is a
 * place (201), none means the time is full, and from then on every POST is answered 409 sold_out from memory (inside
 * the fiber, without the database). A GET (the widget's poll) is answered from what it knows. No customer, no booking
 * row, no key, no log: a floor, not a product. `node bench/flashFloorRuntime.mjs <port> <database url>`; started by
 * bench/flash.ts (build "floorrt"), which reads `select booked from floor_times` after the crowd.
 */
import { createServer } from "node:http"
import { PgClient } from "@effect/sql-pg"
import { Effect, Exit, ManagedRuntime, Schema } from "effect"
import pg from "pg"

const CAP = 100
let full = false
let left = CAP
const pool = new pg.Pool({ connectionString: process.argv[3], max: 20 })
const runtime = ManagedRuntime.make(PgClient.layerFromPool({ acquire: Effect.succeed(pool) }))
const run = (effect) => runtime.runPromiseExit(effect)
const soldOut = { status: 409, body: { error: { code: "sold_out", message: "this time has no places left" } } }
const decode = Schema.decodeUnknown(Schema.parseJson(Schema.Struct({ session_id: Schema.optional(Schema.String) })))

const book = (text) =>
  Effect.gen(function* () {
    const input = yield* decode(text)
    if (full) return soldOut
    const sql = yield* PgClient.PgClient
    const rows =
      yield* sql`update floor_times set booked = booked + 1 where id = ${"s"} and booked < capacity returning booked, capacity`
    if (rows.length === 0) {
      full = true
      return soldOut
    }
    left = Math.min(left, rows[0].capacity - rows[0].booked)
    return { status: 201, body: { data: { id: `b${rows[0].booked}`, session_id: input.session_id ?? "s" } } }
  }).pipe(
    Effect.catchTags({
      ParseError: () =>
        Effect.succeed({ status: 400, body: { error: { code: "invalid_request", message: "body is not JSON" } } }),
      SqlError: () => Effect.succeed({ status: 503, body: { error: { code: "unavailable", message: "database" } } })
    })
  )
const poll = Effect.sync(() => ({ status: 200, body: { data: [{ session_id: "s", remaining: left }] } }))

const send = (res, exit) => {
  const { status, body } = Exit.isSuccess(exit)
    ? exit.value
    : { status: 500, body: { error: { code: "internal_error", message: "fiber failed" } } }
  const text = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  res.end(text)
}
const s = createServer({ maxHeaderSize: 32 * 1024, requestTimeout: 60_000, headersTimeout: 30_000 }, (req, res) => {
  const chunks = []
  req.on("data", (c) => chunks.push(c))
  req.on("end", () => {
    const effect = req.method === "GET" ? poll : book(Buffer.concat(chunks).toString())
    run(effect).then((exit) => send(res, exit))
  })
})
await run(
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    yield* sql`create table if not exists floor_times (id text primary key, capacity int not null, booked int not null)`
    yield* sql`insert into floor_times values ('s', ${CAP}, 0) on conflict (id) do update set capacity = excluded.capacity, booked = 0`
  }).pipe(Effect.orDie)
)
s.listen({ port: Number(process.argv[2]), host: "127.0.0.1", backlog: 4096 }, () => process.send?.("ready"))

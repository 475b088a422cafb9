/**
 * The flash bench's database floor: the least honest work a booking server could do for a crowd over one time. A bare
 * node:http server (the engine's listen backlog, 4,096) and a pg Pool of 20 (the engine's DB_POOL_SIZE) over a table
 * of its own, one row per time (capacity, booked). A POST has its JSON body read and parsed, then one conditional
 * UPDATE (`booked = booked + 1 where booked < capacity`): a row back is a place (201), none means the time is full,
 * and from then on every POST is answered 409 sold_out from memory without the database. A GET (the widget's poll) is
 * answered from what it knows (places left after the last place it gave). No customer, no booking row, no key, no
 * log: a floor, not a product. `node bench/flashFloorPg.mjs <port> <database url>`; started by bench/flash.ts (build
 * "floorpg"), which reads `select booked from floor_times` after the crowd.
 */
import http from "node:http"
import pg from "pg"

const CAP = 100
const pool = new pg.Pool({ connectionString: process.argv[3], max: 20 })
await pool.query(
  "create table if not exists floor_times (id text primary key, capacity int not null, booked int not null)"
)
await pool.query(
  "insert into floor_times values ('s', $1, 0) on conflict (id) do update set capacity = excluded.capacity, booked = 0",
  [CAP]
)
let full = false
let left = CAP
const soldOut = JSON.stringify({ error: { code: "sold_out", message: "this time has no places left" } })
const send = (res, status, body) => {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
  res.end(body)
}
const s = http.createServer((req, res) => {
  const chunks = []
  req.on("data", (c) => chunks.push(c))
  req.on("end", () => {
    if (req.method === "GET") return send(res, 200, JSON.stringify({ data: [{ session_id: "s", remaining: left }] }))
    let input
    try {
      input = JSON.parse(Buffer.concat(chunks).toString())
    } catch {
      return send(res, 400, JSON.stringify({ error: { code: "invalid_request", message: "body is not JSON" } }))
    }
    if (full) return send(res, 409, soldOut)
    pool
      .query(
        "update floor_times set booked = booked + 1 where id = $1 and booked < capacity returning booked, capacity",
        ["s"]
      )
      .then(
        (r) => {
          if (r.rows.length === 0) {
            full = true
            return send(res, 409, soldOut)
          }
          left = Math.min(left, r.rows[0].capacity - r.rows[0].booked)
          send(res, 201, JSON.stringify({ data: { id: `b${r.rows[0].booked}`, session_id: input.session_id ?? "s" } }))
        },
        () => send(res, 503, JSON.stringify({ error: { code: "unavailable", message: "database" } }))
      )
  })
})
s.listen({ port: Number(process.argv[2]), host: "127.0.0.1", backlog: 4096 }, () => process.send?.("ready"))

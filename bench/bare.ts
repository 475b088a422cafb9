/**
 * The baseline: node:http + a pg Pool (the size the engine's pool has) sending the statements the engine sends for
 * POST /api/v1/bookings of a free class time without Idempotency-Key, in the same order, with the same texts and
 * the same transaction shape. bench/bookings.ts traces one booking through each server at the pg driver and reports
 * whether the two statement lists are equal (`parity`); when the engine's path changes, change this to match.
 * No framework, no schemas, no background work (the engine also relays events and sends mail while it runs).
 *
 * Run on its own: DATABASE_URL=postgres://... PORT=3100 npx tsx bench/bare.ts (over a database the engine migrated).
 */
import { createHash, randomBytes, randomInt, randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { pathToFileURL } from "node:url"
import pg from "pg"

/** The engine's per-org event lock namespace (engine/services/Events.ts LOCK_NAMESPACE). */
const LOCK_NAMESPACE = 0x0e7e
const ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789"
const MINUTE_MS = 60_000
const QUOTA: Record<string, number> = { free: 25, pro: 1_000, growth: 5_000, scale: 15_000 }

const Q = {
  auth: `
        select o.*, k.id as key_id from api_keys k join orgs o on o.id = k.org_id
        where k.hash = $1 and k.revoked_at is null`,
  offering: `
          select * from offerings where id = $1::uuid and org_id = $2 and deleted_at is null
          `,
  findTime: `select id from sessions where offering_id = $1 and state = 'scheduled'
        and id = $2`,
  lockTimes: `select s.id, s.offering_id, s.series_id, s.starts_at, s.ends_at, s.state, coalesce(s.capacity, o.capacity)::int as cap
      from sessions s join offerings o on o.id = s.offering_id
      where s.id in ($1) order by s.starts_at, s.id for update of s`,
  seatsTaken: `select (
        coalesce((select sum(b.quantity) from bookings b where b.session_id = $1 and b.series_id is null and b.keeps_place and (b.status = 'confirmed' or b.expires_at > $2)
          and b.id is distinct from $3), 0)
      + coalesce((select sum(b.quantity) from bookings b where $4::uuid is not null and b.series_id = $5
          and b.starts_at <= $6 and b.keeps_place and (b.status = 'confirmed' or b.expires_at > $7) and b.id is distinct from $8), 0))::int as n`,
  customer: `
          insert into customers ("id","org_id","email","name","phone","created_at") VALUES ($1,$2,$3,$4,$5,$6)
          on conflict (org_id, lower(email)) where erased_at is null do update
          set name = coalesce(customers.name, excluded.name), phone = coalesce(customers.phone, excluded.phone), updated_at = excluded.created_at
          where (customers.name is null and excluded.name is not null) or (customers.phone is null and excluded.phone is not null)
          returning *`,
  customerFound: `
          select * from customers where org_id = $1 and lower(email) = lower($2) and erased_at is null`,
  eventLock: `select pg_advisory_xact_lock($1, hashtext($2))`,
  booking: `insert into bookings ("id","org_id","offering_id","customer_id","session_id","series_id","starts_at","ends_at","quantity","state","machine","status","keeps_place","expires_at","total_cents","reference","handle","source","notes","answers","metadata","confirmed_at","created_at","waiver_token","waiver_needed") VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25)`,
  quota: `
      insert into booking_quota (org_id, month, used) values ($1, $2, 1)
      on conflict (org_id, month) do update set used = booking_quota.used + 1 returning used`,
  find: `select b.*, c.name as c_name, c.email as c_email, c.phone as c_phone, o.name as o_name, o.kind as o_kind, o.questions as o_questions
      from bookings b join customers c on c.id = b.customer_id join offerings o on o.id = b.offering_id where b.org_id = $1 and b.id = $2::uuid`,
  mail: `insert into mail_outbox ("id","org_id","to_address","subject","body","reply_to","kind","booking_id","created_at","attempts","next_at") VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)`
} as const

/** `insert into events (...) VALUES ($1,$2,$3,$4),($5,...)`: as many rows as events, the way sql.insert writes it. */
const eventsInsert = (rows: number) =>
  `insert into events ("org_id","type","data","created_at") VALUES ${
    Array.from({ length: rows }, (_, r) => `(${[1, 2, 3, 4].map((c) => `$${r * 4 + c}`).join(",")})`).join(",")
  }`

class Refusal extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message)
  }
}

type Row = Record<string, any>

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null)
const newReference = () => Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("")
const newHandle = () => randomBytes(18).toString("base64url")
const monthIn = (now: Date, zone: string) => {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit" }).formatToParts(now)
  return `${parts.find((p) => p.type === "year")!.value}-${parts.find((p) => p.type === "month")!.value}`
}

const toCustomer = (c: Row) => ({
  id: c.id, name: c.name, email: c.email, phone: c.phone, erased: c.erased_at !== null, created_at: iso(c.created_at), updated_at: iso(c.updated_at)
})

const toBooking = (r: Row) => ({
  id: r.id, org_id: r.org_id, offering_id: r.offering_id, customer_id: r.customer_id, session_id: r.session_id, series_id: r.series_id,
  starts_at: iso(r.starts_at), ends_at: iso(r.ends_at), quantity: r.quantity, total_cents: r.total_cents, promo_code: r.promo_code,
  discount_cents: r.discount_cents, gift_card_id: r.gift_card_id, gift_cents: r.gift_cents, reference: r.reference, status: r.status,
  source: r.source, notes: r.notes, answers: r.answers, metadata: r.metadata, cancelled_at: iso(r.cancelled_at), created_at: iso(r.created_at),
  expires_at: r.status === "held" ? iso(r.expires_at) : null, checkout_url: r.checkout_url, paid_at: iso(r.paid_at), paid_cents: r.paid_cents,
  payment_intent_id: r.payment_intent_id, charged_cents: r.charged_cents, refund_id: r.refund_id, refund_cents: r.refund_cents,
  refunded_at: iso(r.refunded_at), refund_failed_at: iso(r.refund_failed_at), refund_error: r.refund_error, refund_next_at: iso(r.refund_next_at),
  guest_cancel_hours: r.guest_cancel_hours, nudged_at: iso(r.nudged_at), choose_by: r.status === "cancelled" ? null : iso(r.choose_by),
  waiver_token: r.waiver_token, waiver: r.waiver_token === null ? null : { needed: r.waiver_needed ?? r.quantity, signed: r.waiver_signed },
  confirmed_at: iso(r.confirmed_at), updated_at: iso(r.updated_at), reseller_reference: r.reseller_reference, cancel_reason: r.cancel_reason,
  checked_in_at: iso(r.checked_in_at), no_show_at: iso(r.no_show_at),
  offering: { id: r.offering_id, name: r.o_name, kind: r.o_kind, questions: r.o_questions ?? [] },
  customer: { id: r.customer_id, name: r.c_name, email: r.c_email, phone: r.c_phone }
})

interface Input {
  readonly offering_id: string
  readonly session_id: string
  readonly quantity: number
  readonly customer: { readonly email: string; readonly name: string; readonly phone: string | null }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const readInput = (body: unknown): Input => {
  const b = body as Row | null
  const c = b?.customer as Row | undefined
  if (typeof b?.offering_id !== "string" || !UUID.test(b.offering_id)) throw new Refusal(400, "invalid_offering_id", "offering_id: a UUID")
  if (typeof b.session_id !== "string" || !UUID.test(b.session_id)) throw new Refusal(400, "invalid_session_id", "session_id: a UUID")
  if (typeof c?.email !== "string" || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(c.email)) throw new Refusal(400, "invalid_customer", "customer.email")
  if (typeof c.name !== "string" || c.name.length === 0) throw new Refusal(400, "invalid_customer", "customer.name")
  return { offering_id: b.offering_id, session_id: b.session_id, quantity: typeof b.quantity === "number" ? b.quantity : 1, customer: { email: c.email, name: c.name, phone: c.phone ?? null } }
}

/** The booking: one transaction, statement for statement what Bookings.create sends for a free class time. */
const book = async (pool: pg.Pool, publicUrl: string, bearer: string, input: Input) => {
  const hash = createHash("sha256").update(bearer).digest("hex")
  const auth = await pool.query(Q.auth, [hash])
  const org = auth.rows[0] as Row | undefined
  if (org === undefined) throw new Refusal(401, "unauthorized", "the API key is unknown or revoked")
  const client = await pool.connect()
  try {
    await client.query("BEGIN")
    const now = new Date()
    const o = (await client.query(Q.offering, [input.offering_id, org.id])).rows[0] as Row | undefined
    if (o === undefined) throw new Refusal(404, "not_found", "offering not found")
    if (o.state !== "active") throw new Refusal(409, "offering_paused", "this offering is paused and takes no bookings")
    if (input.quantity > o.max_per_booking) throw new Refusal(400, "invalid_quantity", "quantity")
    const found = await client.query(Q.findTime, [o.id, input.session_id])
    if (found.rows.length === 0) throw new Refusal(409, "time_not_available", "no scheduled time of this offering matches")
    const t = (await client.query(Q.lockTimes, [found.rows[0].id])).rows[0] as Row
    if (t.state !== "scheduled") throw new Refusal(409, "time_not_available", "this time was cancelled")
    const start = (t.starts_at as Date).getTime()
    if (start < now.getTime() + o.min_notice_minutes * MINUTE_MS || start > now.getTime() + o.max_advance_days * 86_400_000) {
      throw new Refusal(409, "outside_booking_window", "outside the booking window")
    }
    const taken = (await client.query(Q.seatsTaken, [t.id, now, null, t.series_id, t.series_id, t.starts_at, now, null])).rows[0].n as number
    if (taken + input.quantity > t.cap) throw new Refusal(409, "sold_out", "not enough places left at this time")
    const at = new Date()
    const email = input.customer.email.trim()
    const written = await client.query(Q.customer, [randomUUID(), org.id, email, input.customer.name, input.customer.phone, at])
    const customer: Row = written.rows.length > 0 ? written.rows[0] : (await client.query(Q.customerFound, [org.id, email])).rows[0]
    const events: Array<{ type: string; data: unknown }> = written.rows.length > 0 ? [{ type: "customer.updated", data: toCustomer(customer) }] : []

    const id = randomUUID()
    const startsAt = t.starts_at as Date
    const endsAt = t.ends_at as Date
    const machine = {
      ends_at: endsAt.toISOString(), paid_at: null, previous: null, choose_by: null, nudged_at: null, series_id: null, starts_at: startsAt.toISOString(),
      expires_at: null, no_show_at: null, session_id: t.id, is_reseller: false, cancelled_at: null, confirmed_at: now.toISOString(), paid_by_hand: false,
      checked_in_at: null
    }
    await client.query(Q.booking, [
      id, org.id, o.id, customer.id, t.id, null, startsAt, endsAt, input.quantity, "confirmed.plain", JSON.stringify(machine), "confirmed", true, null,
      0, newReference(), newHandle(), "api", "", "{}", "{}", now, now, null, null
    ])
    const row = (await client.query(Q.find, [org.id, id])).rows[0] as Row
    const booking = toBooking(row)
    const subject = `Booked: ${row.o_name} (${row.reference})`
    const text = [`${subject}.`, `When: ${startsAt.toISOString()}`, `Your booking page: ${publicUrl}/b/${row.handle}`].join("\n")
    const queued = new Date()
    await client.query(Q.mail, [randomUUID(), org.id, row.c_email, subject, text, null, "booking.confirmed", id, queued, 0, queued])

    const used = (await client.query(Q.quota, [org.id, monthIn(now, org.timezone)])).rows[0].used as number
    if (used > (QUOTA[org.plan] ?? 0)) throw new Refusal(402, "plan_quota_exceeded", "the plan's bookings of this month are used")
    events.push({ type: "booking.confirmed", data: booking })
    await client.query(Q.eventLock, [LOCK_NAMESPACE, org.id])
    const stamped = new Date()
    await client.query(eventsInsert(events.length), events.flatMap((e) => [org.id, e.type, JSON.stringify(e.data), stamped]))
    await client.query("COMMIT")
    return booking
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined)
    throw e
  } finally {
    client.release()
  }
}

const send = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  res.end(text)
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

export interface BareServer {
  readonly url: string
  readonly close: () => Promise<void>
}

export const startBare = async (options: { readonly databaseUrl: string; readonly port?: number; readonly poolSize?: number }): Promise<BareServer> => {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 20, application_name: "bench-bare" })
  let publicUrl = ""
  const server = createServer((req, res) => {
    if (req.method !== "POST" || req.url !== "/api/v1/bookings") return send(res, 404, { error: { code: "not_found", message: "no such route" } })
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1]
    readBody(req)
      .then((text) => {
        if (bearer === undefined) throw new Refusal(401, "unauthorized", "send Authorization: Bearer <API_KEY>")
        let parsed: unknown
        try {
          parsed = JSON.parse(text)
        } catch {
          throw new Refusal(400, "invalid_json", "the body is not valid JSON")
        }
        return book(pool, publicUrl, bearer, readInput(parsed))
      })
      .then(
        (booking) => send(res, 201, booking),
        (e: unknown) =>
          e instanceof Refusal
            ? send(res, e.status, { error: { code: e.code, message: e.message } })
            : send(res, 500, { error: { code: "internal_error", message: "something went wrong on our side" } })
      )
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  publicUrl = url
  return {
    url,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await pool.end()
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const databaseUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"
  startBare({ databaseUrl, port: Number(process.env.PORT ?? 3100) }).then((s) => console.log(`bare booking server on ${s.url}`))
}

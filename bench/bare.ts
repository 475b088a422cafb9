/**
 * The same-statement baseline: node:http + a pg Pool (the size the engine's pool has) sending the statements the engine
 * sends for POST /api/v1/bookings of a free class time without Idempotency-Key: the API key lookup (the text
 * Orgs.authenticate sends), then the booking path's two prepared statements (READ and WRITE of
 * engine/services/bookings/statements.ts and engine/store/bookings.ts, imported so the texts cannot drift) with the same parameters.
 * bench/bookings.ts traces one booking through each server at the pg driver and reports whether the two statement
 * lists are equal (`parity`); when the engine's path changes, change this to match.
 * No framework, no schemas, no background work (the engine also relays events and sends mail while it runs).
 *
 * Run on its own: DATABASE_URL=postgres://... PORT=3100 npx tsx bench/bare.ts (over a database the engine migrated).
 */
import { createHash, randomBytes, randomInt, randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { pathToFileURL } from "node:url"
import pg from "pg"
import { READ } from "../engine/services/bookings/statements.ts"
import { WRITE } from "../engine/store/bookings.ts"

const ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789"
const QUOTA: Record<string, number> = { free: 25, pro: 1_000, growth: 5_000, scale: 15_000 }

const AUTH = `
        select o.*, k.id as key_id, m.role, k.user_id is not null as member_key, k.user_id, k.kind as key_kind
        from api_keys k join orgs o on o.id = k.org_id left join members m on m.user_id = k.user_id and m.org_id = k.org_id and m.removed_at is null
        where k.hash = $1 and k.revoked_at is null`

export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string
  ) {
    super(message)
  }
}

export type Row = Record<string, any>

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null)
export const newReference = () => Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("")
export const newHandle = () => randomBytes(18).toString("base64url")
export const monthIn = (now: Date, zone: string) => {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit" }).formatToParts(
    now
  )
  return `${parts.find((p) => p.type === "year")!.value}-${parts.find((p) => p.type === "month")!.value}`
}

export const toCustomer = (c: Row) => ({
  id: c.id,
  name: c.name,
  email: c.email,
  phone: c.phone,
  erased: c.erased_at !== null,
  created_at: iso(c.created_at),
  updated_at: iso(c.updated_at)
})

export const toBooking = (r: Row) => ({
  id: r.id,
  org_id: r.org_id,
  offering_id: r.offering_id,
  customer_id: r.customer_id,
  session_id: r.session_id,
  series_id: r.series_id,
  starts_at: iso(r.starts_at),
  ends_at: iso(r.ends_at),
  quantity: r.quantity,
  total_cents: r.total_cents,
  promo_code: r.promo_code,
  discount_cents: r.discount_cents,
  gift_card_id: r.gift_card_id,
  gift_cents: r.gift_cents,
  reference: r.reference,
  status: r.status,
  source: r.source,
  notes: r.notes,
  answers: r.answers,
  metadata: r.metadata,
  cancelled_at: iso(r.cancelled_at),
  created_at: iso(r.created_at),
  expires_at: r.status === "held" ? iso(r.expires_at) : null,
  checkout_url: r.checkout_url,
  paid_at: iso(r.paid_at),
  paid_cents: r.paid_cents,
  payment_intent_id: r.payment_intent_id,
  charged_cents: r.charged_cents,
  refund_id: r.refund_id,
  refund_cents: r.refund_cents,
  refunded_at: iso(r.refunded_at),
  refund_failed_at: iso(r.refund_failed_at),
  refund_error: r.refund_error,
  refund_next_at: iso(r.refund_next_at),
  guest_cancel_hours: r.guest_cancel_hours,
  nudged_at: iso(r.nudged_at),
  choose_by: r.status === "cancelled" ? null : iso(r.choose_by),
  waiver_token: r.waiver_token,
  waiver: r.waiver_token === null ? null : { needed: r.waiver_needed ?? r.quantity, signed: r.waiver_signed },
  confirmed_at: iso(r.confirmed_at),
  updated_at: iso(r.updated_at),
  reseller_reference: r.reseller_reference,
  cancel_reason: r.cancel_reason,
  checked_in_at: iso(r.checked_in_at),
  no_show_at: iso(r.no_show_at),
  offering: { id: r.offering_id, name: r.o_name, kind: r.o_kind, questions: r.o_questions ?? [] },
  customer: { id: r.customer_id, name: r.c_name, email: r.c_email, phone: r.c_phone }
})

export interface Input {
  readonly offering_id: string
  readonly session_id: string
  readonly quantity: number
  readonly customer: { readonly email: string; readonly name: string; readonly phone: string | null }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
export const readInput = (body: unknown): Input => {
  const b = body as Row | null
  const c = b?.customer as Row | undefined
  if (typeof b?.offering_id !== "string" || !UUID.test(b.offering_id))
    throw new Refusal(400, "invalid_offering_id", "offering_id: a UUID")
  if (typeof b.session_id !== "string" || !UUID.test(b.session_id))
    throw new Refusal(400, "invalid_session_id", "session_id: a UUID")
  if (typeof c?.email !== "string" || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(c.email))
    throw new Refusal(400, "invalid_customer", "customer.email")
  if (typeof c.name !== "string" || c.name.length === 0) throw new Refusal(400, "invalid_customer", "customer.name")
  return {
    offering_id: b.offering_id,
    session_id: b.session_id,
    quantity: typeof b.quantity === "number" ? b.quantity : 1,
    customer: { email: c.email, name: c.name, phone: c.phone ?? null }
  }
}

const prepared = <A extends pg.QueryResultRow>(
  client: pg.ClientBase | pg.Pool,
  statement: { name: string; text: string },
  values: unknown[]
) => client.query<A>({ name: statement.name, text: statement.text, values })

/** WRITE's round trips (ms) while no other booking was in flight in this process: what the statement itself takes. */
const writeTimes: number[] = []
let inflight = 0
const writeStats = () => {
  const s = [...writeTimes].sort((a, b) => a - b)
  const q = (x: number) =>
    s.length === 0 ? NaN : Math.round(s[Math.min(s.length - 1, Math.floor(x * s.length))] * 100) / 100
  return { p50: q(0.5), p90: q(0.9), samples: s.length }
}

/** The booking: the key lookup, READ, then WRITE (its own transaction), as Bookings.create sends them for a free class time. */
const book = async (pool: pg.Pool, publicUrl: string, bearer: string, input: Input) => {
  const hash = createHash("sha256").update(bearer).digest("hex")
  const auth = await pool.query(AUTH, [hash])
  const org = auth.rows[0] as Row | undefined
  if (org === undefined) throw new Refusal(401, "unauthorized", "the API key is unknown or revoked")
  const now = new Date()
  const client = await pool.connect()
  try {
    const o = (await prepared(client, READ, [input.offering_id, org.id, input.session_id, null, input.customer.email]))
      .rows[0] as Row | undefined
    if (o === undefined) throw new Refusal(404, "not_found", "offering not found")
    if (o.state !== "active") throw new Refusal(409, "offering_paused", "this offering is paused and takes no bookings")
    if (input.quantity > o.max_per_booking) throw new Refusal(400, "invalid_quantity", "quantity")
    if (o.s_id === null || o.s_state !== "scheduled")
      throw new Refusal(409, "time_not_available", "no scheduled time of this offering matches")
    const startsAt = o.s_starts_at as Date
    const endsAt = o.s_ends_at as Date
    if (
      startsAt.getTime() < now.getTime() + o.min_notice_minutes * 60_000 ||
      startsAt.getTime() > now.getTime() + o.max_advance_days * 86_400_000
    ) {
      throw new Refusal(409, "outside_booking_window", "outside the booking window")
    }
    if (o.s_booked + input.quantity > o.s_cap) throw new Refusal(409, "sold_out", "not enough places left at this time")
    const email = input.customer.email.trim()
    const isNew = o.c_id === null
    const customer: Row = isNew
      ? {
          id: randomUUID(),
          name: input.customer.name,
          email,
          phone: input.customer.phone,
          erased_at: null,
          created_at: now,
          updated_at: null
        }
      : {
          id: o.c_id,
          name: o.c_name,
          email: o.c_email,
          phone: o.c_phone,
          erased_at: null,
          created_at: o.c_created_at,
          updated_at: o.c_updated_at
        }
    const id = randomUUID()
    const machine = {
      ends_at: endsAt.toISOString(),
      paid_at: null,
      previous: null,
      choose_by: null,
      nudged_at: null,
      series_id: null,
      starts_at: startsAt.toISOString(),
      expires_at: null,
      no_show_at: null,
      session_id: o.s_id,
      is_reseller: false,
      cancelled_at: null,
      confirmed_at: now.toISOString(),
      paid_by_hand: false,
      checked_in_at: null
    }
    const row: Row = {
      id,
      org_id: org.id,
      offering_id: o.id,
      customer_id: customer.id,
      session_id: o.s_id,
      series_id: null,
      starts_at: startsAt,
      ends_at: endsAt,
      quantity: input.quantity,
      total_cents: 0,
      promo_code: null,
      discount_cents: 0,
      gift_card_id: null,
      gift_cents: 0,
      reference: newReference(),
      handle: newHandle(),
      status: "confirmed",
      source: "api",
      notes: "",
      answers: {},
      metadata: {},
      cancelled_at: null,
      created_at: now,
      expires_at: null,
      checkout_url: null,
      paid_at: null,
      paid_cents: null,
      payment_intent_id: null,
      charged_cents: null,
      refund_id: null,
      refund_cents: null,
      refunded_at: null,
      refund_failed_at: null,
      refund_error: null,
      refund_next_at: null,
      guest_cancel_hours: o.g_cancel_hours ?? null,
      nudged_at: null,
      choose_by: null,
      waiver_token: null,
      waiver_needed: null,
      waiver_signed: 0,
      confirmed_at: now,
      updated_at: null,
      reseller_reference: null,
      cancel_reason: null,
      checked_in_at: null,
      no_show_at: null,
      o_name: o.name,
      o_kind: o.kind,
      o_questions: o.questions,
      c_name: customer.name,
      c_email: customer.email,
      c_phone: customer.phone
    }
    const booking = toBooking(row)
    const events = [
      ...(isNew ? [{ type: "customer.updated", data: toCustomer(customer) }] : []),
      { type: "booking.confirmed", data: booking }
    ]
    const subject = `Booked: ${o.name} (${row.reference})`
    const text = [
      `${subject}.`,
      `When: ${startsAt.toISOString()}`,
      `Your booking page: ${publicUrl}/b/${row.handle}`
    ].join("\n")
    const alone = inflight === 1
    const sent = performance.now()
    const write = WRITE[isNew ? "new" : "keep"]
    const written = await prepared<{ written: number }>(client, write.statement, [
      ...write.values({
        org_id: org.id,
        at: now,
        customer_id: customer.id,
        email,
        name: input.customer.name,
        phone: input.customer.phone,
        known_name: o.c_name,
        known_phone: o.c_phone,
        id,
        offering_id: o.id,
        session_id: o.s_id,
        series_id: null,
        starts_at: startsAt,
        ends_at: endsAt,
        quantity: input.quantity,
        places: input.quantity,
        state: "confirmed.plain",
        machine: JSON.stringify(machine),
        status: "confirmed",
        expires_at: null,
        total_cents: 0,
        reference: row.reference,
        handle: row.handle,
        source: "api",
        notes: "",
        answers: "{}",
        metadata: "{}",
        confirmed_at: now,
        waiver_token: null,
        waiver_needed: null,
        guest_cancel_hours: o.g_cancel_hours ?? null,
        mail_id: randomUUID(),
        mail_to: email,
        mail_subject: subject,
        mail_body: text,
        mail_kind: "booking.confirmed",
        mail_vars: JSON.stringify({
          kind: "confirmed",
          reference: row.reference,
          offering: o.name,
          starts_at: startsAt.toISOString(),
          page_url: `${publicUrl}/b/${row.handle}`,
          waiver_url: null,
          note: null,
          pay_url: null
        }),
        month: monthIn(now, org.timezone),
        quota: QUOTA[org.plan] ?? 0,
        event_types: events.map((e) => e.type),
        event_data: JSON.stringify(events.map((e) => e.data)),
        actor: JSON.stringify({ type: "key", id: null, user_id: null })
      })
    ]).catch((e: unknown) => {
      const c = (e as { constraint?: string }).constraint
      if (c === "sold_out") throw new Refusal(409, "sold_out", "not enough places left at this time")
      if (c === "plan_quota_exceeded")
        throw new Refusal(402, "plan_quota_exceeded", "the plan's bookings of this month are used")
      throw e
    })
    if (alone && writeTimes.length < 100_000) writeTimes.push(performance.now() - sent)
    if (written.rows[0].written !== 1) throw new Refusal(409, "booking_busy", "the guest changed while booking")
    return booking
  } finally {
    client.release()
  }
}

export const send = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  res.end(text)
}

export const readBody = (req: IncomingMessage) =>
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

/** node:http answering POST /api/v1/bookings with `book` (201 and the booking, or the refusal's status), and 404 otherwise. */
export const serveBookings = async (
  port: number,
  book: (bearer: string, input: Input, publicUrl: string) => Promise<unknown>,
  onClose: () => Promise<void>,
  stats: () => unknown = () => ({})
): Promise<BareServer> => {
  let publicUrl = ""
  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/stats") return send(res, 200, stats())
    if (req.method !== "POST" || req.url !== "/api/v1/bookings")
      return send(res, 404, { error: { code: "not_found", message: "no such route" } })
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
        return book(bearer, readInput(parsed), publicUrl)
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
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  publicUrl = url
  return {
    url,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await onClose()
    }
  }
}

export const startBare = (options: {
  readonly databaseUrl: string
  readonly port?: number
  readonly poolSize?: number
  readonly pool?: pg.Pool
}): Promise<BareServer> => {
  const pool =
    options.pool ??
    new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 20, application_name: "bench-bare" })
  return serveBookings(
    options.port ?? 0,
    (bearer, input, publicUrl) => {
      inflight++
      return book(pool, publicUrl, bearer, input).finally(() => inflight--)
    },
    () => pool.end(),
    writeStats
  )
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const databaseUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"
  startBare({ databaseUrl, port: Number(process.env.PORT ?? 3100) }).then((s) => console.log(`ready ${s.url}`))
}

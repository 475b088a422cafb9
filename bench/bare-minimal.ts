/**
 * The FLOOR: node:http + a pg Pool (20, the engine's size) that books with the minimal SQL, one prepared statement
 * per booking: the conditional update of the time's seat counter (`booked + places <= cap`) and the booking insert,
 * joined in one statement (so one round trip and one implicit transaction):
 *
 *   with s as (update sessions set booked = booked + $n where id = $1 and ... and booked + $n <= cap returning ...)
 *   insert into bookings (...) select ... from s returning *
 *
 * Nothing else: no key lookup in SQL (API keys, orgs, offerings and one customer per org are read once at start into
 * memory), no customer upsert, no mail, no quota, no events. It answers 201 with the same booking JSON as bare.ts.
 *
 * It runs over its own database (a copy of the engine's, same schema and indexes) where the `booking_places` trigger
 * is disabled: the update above does the counting that trigger would do, and it must not count twice.
 *
 * Run on its own: DATABASE_URL=postgres://... PORT=3101 npx tsx bench/bare-minimal.ts (prints `ready <url>`).
 */
import { createHash, randomUUID } from "node:crypto"
import { pathToFileURL } from "node:url"
import pg from "pg"
import { type BareServer, newHandle, newReference, Refusal, type Row, serveBookings, toBooking } from "./bare.ts"

const BOOK = {
  name: "floor_book",
  text: `with s as (
      update sessions set booked = booked + $5::int
      where id = $1::uuid and offering_id = $2::uuid and state = 'scheduled' and booked + $5::int <= cap
      returning id, starts_at, ends_at
    )
    insert into bookings (id, org_id, offering_id, customer_id, session_id, starts_at, ends_at, quantity, places, state, machine, status,
      keeps_place, total_cents, reference, handle, source, notes, answers, metadata, confirmed_at, created_at)
    select $3::uuid, $4::uuid, $2::uuid, $6::uuid, s.id, s.starts_at, s.ends_at, $5::int, $5::int, 'confirmed.plain',
      jsonb_build_object('starts_at', s.starts_at, 'ends_at', s.ends_at, 'session_id', s.id, 'series_id', null, 'confirmed_at', $9::timestamptz,
        'is_reseller', false, 'expires_at', null, 'cancelled_at', null, 'paid_at', null, 'paid_by_hand', false, 'nudged_at', null,
        'choose_by', null, 'checked_in_at', null, 'no_show_at', null, 'previous', null),
      'confirmed', true, 0, $7::text, $8::text, 'api', '', '{}', '{}', $9::timestamptz, $9::timestamptz
    from s
    returning *`
}

export const startFloor = async (options: {
  readonly databaseUrl: string
  readonly port?: number
  readonly poolSize?: number
}): Promise<BareServer> => {
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.poolSize ?? 20,
    application_name: "bench-floor"
  })
  // Read once at start: what the engine looks up per request (key -> org, the offering, a customer of the org).
  const keys = new Map<string, string>()
  for (const r of (await pool.query(`select k.hash, k.org_id from api_keys k where k.revoked_at is null`)).rows)
    keys.set(r.hash, r.org_id)
  const offerings = new Map<string, Row>()
  for (const r of (
    await pool.query(
      `select id, org_id, name, kind, questions, max_per_booking from offerings where deleted_at is null`
    )
  ).rows)
    offerings.set(r.id, r)
  const customers = new Map<string, Row>()
  for (const r of (
    await pool.query(
      `select distinct on (org_id) id, org_id, name, email, phone from customers order by org_id, created_at`
    )
  ).rows)
    customers.set(r.org_id, r)

  const book = async (bearer: string, input: { offering_id: string; session_id: string; quantity: number }) => {
    const orgId = keys.get(createHash("sha256").update(bearer).digest("hex"))
    if (orgId === undefined) throw new Refusal(401, "unauthorized", "the API key is unknown or revoked")
    const o = offerings.get(input.offering_id)
    if (o === undefined || o.org_id !== orgId) throw new Refusal(404, "not_found", "offering not found")
    if (input.quantity > o.max_per_booking) throw new Refusal(400, "invalid_quantity", "quantity")
    const c = customers.get(orgId)
    if (c === undefined) throw new Refusal(409, "no_customer", "the floor needs one customer per org")
    const now = new Date()
    const { rows } = await pool.query({
      name: BOOK.name,
      text: BOOK.text,
      values: [input.session_id, o.id, randomUUID(), orgId, input.quantity, c.id, newReference(), newHandle(), now]
    })
    if (rows.length === 0) throw new Refusal(409, "sold_out", "not enough places left at this time")
    return toBooking({
      ...rows[0],
      o_name: o.name,
      o_kind: o.kind,
      o_questions: o.questions,
      c_name: c.name,
      c_email: c.email,
      c_phone: c.phone
    })
  }
  return serveBookings(
    options.port ?? 0,
    (bearer, input) => book(bearer, input),
    () => pool.end()
  )
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const databaseUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"
  startFloor({ databaseUrl, port: Number(process.env.PORT ?? 3101) }).then((s) => console.log(`ready ${s.url}`))
}

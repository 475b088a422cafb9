import type { PreparedStatement } from "../../ports/Prepared.ts"

/**
 * The booking path's two statements. READ: the offering, the time asked for (by id, else by start) with its places
 * taken, and the guest if the org knows their email. WRITE: everything a new booking changes, in one statement and
 * so one transaction: the customer (created, filled in, or only checked, as READ saw it, one statement for each: if
 * that no longer holds nothing is written and the caller reads again), the booking (the booking_places trigger takes
 * its places or refuses), its mail and the mail's place in mail_queue (none when $33, the address, is null: a quiet
 * booking), then the org's event clock row, which also counts the month's bookings against the plan's quota (refused
 * past it; migration 0094), and the booking's events stamped under it, their ids queued for the relay (relay_queue).
 * They run in the order the final select reads them (a CTE nothing reads runs last): the customer, the booking (the
 * time's row is locked from here to commit), its mail, and only then the org's row, which every booking of the org
 * waits on, so it is held for the least: the events, the commit. READ checks the offering's org as
 * `(o.org_id = $2) is true` so that the offering comes through its primary key, whatever the statistics say of the
 * org (see ofOrg, engine/store/tenancy.ts).
 */
export const READ: PreparedStatement = {
  name: "booking_read",
  text: `select o.id, o.kind, o.schedule, o.course, o.min_notice_minutes, o.max_advance_days, o.max_periods, o.hours, o.duration_minutes,
      o.slot_interval_minutes, o.name, o.state, o.max_per_booking, o.price_cents, o.guest_price_cents, o.questions, o.waiver_required,
      o.waitlist_enabled,
      s.id as s_id, s.starts_at as s_starts_at, s.ends_at as s_ends_at, s.state as s_state, s.booked as s_booked, s.cap as s_cap,
      c.id as c_id, c.name as c_name, c.email as c_email, c.phone as c_phone, c.created_at as c_created_at, c.updated_at as c_updated_at,
      (select g.guest_cancel_hours from orgs g where g.id = o.org_id) as g_cancel_hours
    from offerings o
    left join sessions s on s.offering_id = o.id and s.state <> 'removed' and s.id = coalesce($3::uuid,
      (select x.id from sessions x where x.offering_id = o.id and x.starts_at = $4::timestamptz and x.state = 'scheduled' order by x.id limit 1))
    left join customers c on c.org_id = o.org_id and lower(c.email) = lower($5::text) and c.erased_at is null
    where o.id = $1::uuid and (o.org_id = $2::uuid) is true and o.deleted_at is null`
}

/**
 * What WRITE does to the guest's row, as READ found it: create it ($3 the new id; if another request created it first
 * nothing is written), fill in a missing name or phone (only if both are still as READ saw them), or only check that it
 * is there. One statement per case: a statement sets up every table change it holds each time it runs, whether that
 * change writes a row or not, and the other two cases' changes cost about 3.5% of the booking's work in Postgres.
 */
const CUSTOMER = {
  new: `insert into customers (id, org_id, email, name, phone, created_at)
      select $3::uuid, $1::uuid, $4::text, $5::text, $6::text, $7::timestamptz
      on conflict do nothing returning id`,
  fill: `update customers set name = coalesce(name, $5::text), phone = coalesce(phone, $6::text), updated_at = $7::timestamptz
      where id = $3::uuid and org_id = $1::uuid and erased_at is null and name is not distinct from $8::text and phone is not distinct from $9::text
      returning id`,
  keep: `select id from customers where id = $3::uuid and org_id = $1::uuid and erased_at is null`
} as const

export type CustomerMode = keyof typeof CUSTOMER

/**
 * WRITE for each way of meeting the guest, all three with the same parameters. $2 (the mode), $4-$6 and $8-$9 (the
 * guest's details) are also named in the final select, so that each statement knows their types whether it reads
 * them or not.
 */
const writeFor = (mode: CustomerMode): PreparedStatement => ({
  name: `booking_write_${mode}`,
  text: `with c as (
      ${CUSTOMER[mode]}
    ), b as (
      insert into bookings (id, org_id, offering_id, customer_id, session_id, series_id, starts_at, ends_at, quantity, places, state, machine,
        status, keeps_place, expires_at, total_cents, reference, handle, source, notes, answers, metadata, confirmed_at, created_at,
        waiver_token, waiver_needed, guest_cancel_hours)
      select $10::uuid, $1::uuid, $11::uuid, c.id, $12::uuid, $13::uuid, $14::timestamptz, $15::timestamptz, $16::int, $17::int, $18::text,
        $19::jsonb, $20::text, true, $21::timestamptz, $22::int, $23::text, $24::text, $25::text, $26::text, $27::jsonb, $28::jsonb,
        $29::timestamptz, $7::timestamptz, $30::text, $31::int, $42::int
      from c
      returning id
    ), m as (
      insert into mail_outbox (id, org_id, to_address, subject, body, kind, booking_id, created_at, attempts, next_at, vars)
      select $32::uuid, $1::uuid, $33::text, $34::text, $35::text, $36::text, b.id, $7::timestamptz, 0, $7::timestamptz, $41::jsonb from b
      where $33::text is not null
      returning id, next_at
    ), mq as (
      insert into mail_queue (mail_id, due_at) select id, next_at from m
      returning 1
    ), t as (
      insert into org_events as x (org_id, last_at, month, used, quota) select $1::uuid, $7::timestamptz, $37::text, 1, $38::int from b
      on conflict (org_id) do update set last_at = greatest(x.last_at, excluded.last_at),
        used = case when excluded.month > x.month then 1 else x.used + 1 end, month = greatest(x.month, excluded.month), quota = excluded.quota
      returning last_at
    ), e as (
      insert into events (org_id, type, data, created_at)
      select $1::uuid, v.type, v.data, t.last_at from t, rows from (unnest($39::text[]), jsonb_array_elements($40::jsonb)) with ordinality as v(type, data, n)
      order by v.n
      returning id
    ), r as (
      insert into relay_queue (event_id) select id from e
    )
    select (select count(*) from b)::int as written, (select count(*) from mq)::int as mails, (select count(*) from e)::int as events,
      ($2::text, $4::text, $5::text, $6::text, $8::text, $9::text) is null as unread`
})

export const WRITE: Record<CustomerMode, PreparedStatement> = { new: writeFor("new"), fill: writeFor("fill"), keep: writeFor("keep") }

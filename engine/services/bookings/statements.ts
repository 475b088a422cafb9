import type { PreparedStatement } from "../../ports/Prepared.ts"

/**
 * The booking path's first statement, READ: the offering, the time asked for (by id, else by start) with its places
 * taken, whether a closure lies within a day of that time (only then are the closures read), and the guest if the org
 * knows their email. Its second, WRITE, is the bookings store's (engine/store/bookings.ts).
 * READ checks the offering's org as `(o.org_id = $2) is true` so that the offering comes through its primary key,
 * whatever the statistics say of the org (see ofOrg, engine/store/tenancy.ts).
 */
export const READ: PreparedStatement = {
  name: "booking_read",
  text: `select o.id, o.kind, o.schedule, o.course, o.min_notice_minutes, o.max_advance_days, o.max_periods, o.hours, o.duration_minutes,
      o.slot_interval_minutes, o.name, o.state, o.max_per_booking, o.price_cents, o.guest_price_cents, o.questions, o.waiver_required,
      o.waitlist_enabled,
      s.id as s_id, s.starts_at as s_starts_at, s.ends_at as s_ends_at, s.state as s_state, s.booked as s_booked, s.cap as s_cap,
      c.id as c_id, c.name as c_name, c.email as c_email, c.phone as c_phone, c.created_at as c_created_at, c.updated_at as c_updated_at,
      (select g.guest_cancel_hours from orgs g where g.id = o.org_id) as g_cancel_hours,
      (s.id is not null and exists(select 1 from closures z where z.org_id = o.org_id and (z.offering_id is null or z.offering_id = o.id)
        and z.starts_at < s.ends_at + interval '1 day' and z.ends_at > s.starts_at - interval '1 day')) as s_closed_near
    from offerings o
    left join sessions s on s.offering_id = o.id and s.state <> 'removed' and s.id = coalesce($3::uuid,
      (select x.id from sessions x where x.offering_id = o.id and x.starts_at = $4::timestamptz and x.state = 'scheduled' order by x.id limit 1))
    left join customers c on c.org_id = o.org_id and lower(c.email) = lower($5::text) and c.erased_at is null
    where o.id = $1::uuid and (o.org_id = $2::uuid) is true and o.deleted_at is null`
}

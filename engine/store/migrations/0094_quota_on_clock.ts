import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The month's booking quota moves onto the org's event clock row (`org_events`): `month` (the org's current calendar
 * month, 'YYYY-MM', '' before its first booking), `used` (bookings created in it) and `quota` (the plan's, as of the
 * last booking), with `used <= quota` as the check that refuses a booking past it.
 *
 * Every booking of an org locks both rows to its commit, one after the other, so the org's bookings pass one at a
 * time through both upserts, the events' insert and the commit: one row instead of two shortens that part by an
 * upsert. A booking stamped with a later month starts the count anew; one stamped with an earlier month than the row's
 * (an instance whose clock is behind, or an org that moved its time zone west across a month's start) counts against
 * the row's month. Only the current month is kept: nothing read the months before, and the bookings themselves
 * (created_at) are the record of how many were made when.
 *
 * Each org's latest month in booking_quota carries over; an org with a quota row and no clock row gets one at the
 * epoch (its next event is stamped with the time it is written, as last_at only keeps stamps from going down).
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    alter table org_events
      add column month text not null default '',
      add column used integer not null default 0 check (used >= 0),
      add column quota integer not null default 2147483647;
    insert into org_events as x (org_id, last_at, month, used, quota)
      select distinct on (org_id) org_id, to_timestamp(0), month, used, quota from booking_quota order by org_id, month desc
      on conflict (org_id) do update set month = excluded.month, used = excluded.used, quota = excluded.quota;
    alter table org_events add constraint plan_quota_exceeded check (used <= quota);
    drop table booking_quota;
  `)
})

import type { SqlClient } from "@effect/sql"

/**
 * What a session `s` has taken at instant `now`, as a SQL expression: its counter (seats of its bookings and of
 * course bookings holding a seat in it, or bookings for an appointment; see migration 0008_counters) less the
 * holds past expires_at that the lapse job has not reached yet, so reads follow the clock to the second. The
 * subtraction looks only at holds already due (an index on expires_at), which are few.
 */
export const bookedExpr = (sql: SqlClient.SqlClient, now: Date) =>
  sql`(s.booked - coalesce((select sum(b.places) from bookings b where b.status = 'held' and b.keeps_place and b.expires_at <= ${now}
    and ((b.series_id is null and b.session_id = s.id) or (b.series_id = s.series_id and b.starts_at <= s.starts_at))), 0))::int`

import type { SqlClient } from "@effect/sql"

/**
 * What a session `s` of offering `o` has taken at instant `now`, as a SQL expression: for a class the
 * seats of bookings of that time plus course bookings holding a seat in it; for an appointment the
 * number of bookings. Counts confirmed bookings and holds that still keep their place.
 */
export const bookedExpr = (sql: SqlClient.SqlClient, now: Date) => {
  const live = sql`b.keeps_place and (b.status = 'confirmed' or b.expires_at > ${now})`
  return sql`(case when o.kind = 'appointment'
    then (select count(*) from bookings b where b.session_id = s.id and ${live})
    else coalesce((select sum(b.quantity) from bookings b where b.session_id = s.id and b.series_id is null and ${live}), 0)
       + coalesce((select sum(b.quantity) from bookings b
           where s.series_id is not null and b.series_id = s.series_id and b.starts_at <= s.starts_at and ${live}), 0)
    end)::int`
}

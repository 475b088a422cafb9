import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** A report's scope: one org, a half-open span of instants and the zone its local dates and hours are read in. */
export interface Scope {
  readonly org: string
  readonly start: Date
  readonly end: Date
  readonly zone: string
  /** One offering's rows only, when set. */
  readonly offering?: string | undefined
}

const only = (sql: SqlClient.SqlClient, s: Scope, column: "b.offering_id" | "s.offering_id" | "w.offering_id") =>
  s.offering === undefined ? sql`` : sql`and ${sql.unsafe(column)} = ${s.offering}`

/**
 * The reports' SQL, over the rows kept (bookings, sessions, waitlist entries): nothing is stored twice. Money is
 * summed as bigint and answered as numbers.
 */
export const revenueSql = (sql: SqlClient.SqlClient, s: Scope, by: "day" | "week" | "month" | "offering") =>
  sql<{
    period: string | null
    offering_id: string | null
    offering_name: string | null
    bookings: number
    charged_cents: string
    refunded_cents: string
    gift_card_cents: string
    discount_cents: string
    deposits_due_cents: string
  }>`select ${by === "offering" ? sql`null::text` : sql`to_char(r.k, 'YYYY-MM-DD')`} as period,
      ${by === "offering" ? sql`r.k::text` : sql`null::text`} as offering_id,
      ${by === "offering" ? sql`(select name from offerings where id = r.k)` : sql`null::text`} as offering_name,
      r.bookings, r.charged_cents, r.refunded_cents, r.gift_card_cents, r.discount_cents, r.deposits_due_cents
    from (select ${by === "offering" ? sql`b.offering_id` : sql`date_trunc(${by}, b.created_at at time zone ${s.zone})`} as k,
        count(*)::int as bookings,
        coalesce(sum(b.charged_cents), 0)::bigint as charged_cents,
        coalesce(sum(b.refund_cents) filter (where b.refunded_at is not null), 0)::bigint as refunded_cents,
        coalesce(sum(b.gift_cents), 0)::bigint as gift_card_cents,
        coalesce(sum(b.discount_cents), 0)::bigint as discount_cents,
        coalesce(sum(b.total_cents - b.paid_cents) filter (where b.status = 'confirmed' and b.paid_cents > 0
          and b.paid_cents < b.total_cents), 0)::bigint as deposits_due_cents
      from bookings b
      where b.org_id = ${s.org} and b.created_at >= ${s.start} and b.created_at < ${s.end} and b.confirmed_at is not null
        ${only(sql, s, "b.offering_id")}
      group by 1) r
    order by ${by === "offering" ? sql`3, 2` : sql`1`}`

export const occupancySql = (sql: SqlClient.SqlClient, s: Scope) =>
  sql<{
    offering_id: string
    offering_name: string
    hour: number
    times: number
    places_offered: number
    places_sold: number
  }>`select s.offering_id::text as offering_id, min(o.name) as offering_name,
      extract(hour from s.starts_at at time zone ${s.zone})::int as hour, count(*)::int as times,
      coalesce(sum(s.cap), 0)::int as places_offered, coalesce(sum(s.booked), 0)::int as places_sold
    from sessions s join offerings o on o.id = s.offering_id
    where s.org_id = ${s.org} and s.state = 'scheduled' and s.starts_at >= ${s.start} and s.starts_at < ${s.end}
      ${only(sql, s, "s.offering_id")}
    group by s.offering_id, 3 order by 2, 1, 3`

export const attendanceSql = (sql: SqlClient.SqlClient, s: Scope) =>
  sql<{
    offering_id: string
    offering_name: string
    bookings: number
    cancelled: number
    checked_in: number
    no_shows: number
  }>`select b.offering_id::text as offering_id, min(o.name) as offering_name, count(*)::int as bookings,
      (count(*) filter (where b.status = 'cancelled'))::int as cancelled,
      (count(*) filter (where b.checked_in_at is not null))::int as checked_in,
      (count(*) filter (where b.no_show_at is not null))::int as no_shows
    from bookings b join offerings o on o.id = b.offering_id
    where b.org_id = ${s.org} and b.starts_at >= ${s.start} and b.starts_at < ${s.end} and b.confirmed_at is not null
      ${only(sql, s, "b.offering_id")}
    group by b.offering_id order by 2, 1`

export const waitlistSql = (sql: SqlClient.SqlClient, s: Scope) =>
  sql<{ offering_id: string; offering_name: string; joins: number; got_a_place: number }>`
    select w.offering_id::text as offering_id, min(o.name) as offering_name, count(*)::int as joins,
      (count(*) filter (where w.end_reason = 'booked'))::int as got_a_place
    from waitlist_entries w join offerings o on o.id = w.offering_id
    where w.org_id = ${s.org} and w.created_at >= ${s.start} and w.created_at < ${s.end} ${only(sql, s, "w.offering_id")}
    group by w.offering_id order by 2, 1`

/**
 * A report's statement in a transaction whose sorts and hashes may take 32 MB: a year of a busy org groups some
 * 100,000 rows, which in the default 4 MB are sorted on disk instead of hashed in memory.
 */
export const roomy = <A, E, R>(sql: SqlClient.SqlClient, statement: Effect.Effect<A, E, R>) =>
  sql.withTransaction(Effect.zipRight(sql`set local work_mem = '32MB'`, statement))

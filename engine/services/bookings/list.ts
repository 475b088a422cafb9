import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { InvalidAfter } from "../../errors/index.ts"
import type { BookingsQuery } from "../../schema/booking.ts"
import { type BookingRow, type Joined, toBooking } from "../../store/bookingRow.ts"
import { bookingStore } from "../../store/bookings.ts"
import { ofOrg } from "../../store/tenancy.ts"
import { fn } from "../../tracing.ts"
import { CurrentOrg } from "../CurrentOrg.ts"

const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** bookings.list: soonest first (desc: latest start first), keyset-paged on (starts_at, id) after a booking id. */
export const listBookings = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const store = yield* bookingStore
  return fn("Bookings.list")(function* (q: BookingsQuery) {
    const org = yield* CurrentOrg
    const limit = q.limit ?? 50
    const desc = q.order === "desc"
    const cursor =
      q.after === undefined
        ? undefined
        : (yield* sql<{
            starts_at: Date
            id: string
          }>`select starts_at, id from bookings where id = ${q.after} and ${ofOrg(sql, "org_id", org.id)}`.pipe(
            Effect.orDie
          ))[0]
    if (q.after !== undefined && cursor === undefined)
      return yield* new InvalidAfter({ message: "after: no such booking" })
    const rows = yield* sql<BookingRow & Joined>`${store.joined()} where b.org_id = ${org.id}
      ${q.from ? sql`and b.starts_at >= ${q.from}` : sql``}
      ${q.to ? sql`and b.starts_at < ${q.to}` : sql``}
      ${q.status ? sql`and b.status = ${q.status}` : sql``}
      ${q.offering_id ? sql`and b.offering_id = ${q.offering_id}` : sql``}
      ${q.customer_id ? sql`and b.customer_id = ${q.customer_id}` : sql``}
      ${q.session_id ? sql`and b.session_id = ${q.session_id}` : sql``}
      ${q.reference ? sql`and upper(b.reference) = upper(${q.reference})` : sql``}
      ${q.q ? sql`and (c.name ilike ${like(q.q)} or c.email ilike ${like(q.q)} or b.reference ilike ${like(q.q)})` : sql``}
      ${cursor ? (desc ? sql`and (b.starts_at, b.id) < (${cursor.starts_at}, ${cursor.id})` : sql`and (b.starts_at, b.id) > (${cursor.starts_at}, ${cursor.id})`) : sql``}
      order by b.starts_at ${desc ? sql`desc` : sql`asc`}, b.id ${desc ? sql`desc` : sql`asc`} limit ${limit + 1}`.pipe(
      Effect.orDie
    )
    const page = rows.slice(0, limit)
    return { data: page.map(toBooking), next_after: rows.length > limit ? page[page.length - 1].id : null }
  })
})

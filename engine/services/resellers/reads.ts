import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Option } from "effect"
import { addDays, toLocal } from "../../time/local.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import type { OfferingRow } from "../offerings/row.ts"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** At most this many bookings in one listing. */
export const LIST_LIMIT = 500
/** No zone is more than 14 hours from UTC: a local date's bookings start within this much of its UTC day. */
const ZONE_SLACK_MS = 14 * 3_600_000

/** A booking as a reseller sees it: the row, its guest, and what the reseller keeps on it (as it sent it). */
export interface ResellerBooking {
  readonly id: string
  readonly offering_id: string
  /** The reseller's own id for the booking: its idempotency key, unique in the org. */
  readonly reseller_uuid: string
  /** The guest's contact and the booking's items as the reseller sent them (JSON), null when it sent none. */
  readonly reseller_contact: unknown
  readonly reseller_units: unknown
  readonly reseller_reference: string | null
  readonly reference: string
  readonly status: "held" | "confirmed" | "cancelled"
  readonly keeps_place: boolean
  readonly expires_at: Date | null
  readonly starts_at: Date
  readonly ends_at: Date
  readonly session_id: string | null
  readonly quantity: number
  readonly total_cents: number
  readonly notes: string
  readonly cancel_reason: string | null
  readonly created_at: Date
  readonly updated_at: Date | null
  readonly confirmed_at: Date | null
  readonly cancelled_at: Date | null
  readonly checked_in_at: Date | null
  readonly c_name: string | null
  readonly c_email: string | null
  readonly c_phone: string | null
}

/** Which of the org's reseller bookings to list: any of the references, the offering, local dates of the start. */
export interface ResellerFilter {
  readonly reseller_reference?: string | undefined
  readonly reference?: string | undefined
  readonly offering_id?: string | undefined
  /** Local dates (YYYY-MM-DD) of the start in `zone`, both included. */
  readonly from?: string | undefined
  readonly to?: string | undefined
  readonly zone: string
}

const utcDay = (date: string) => Date.parse(`${date}T00:00:00Z`)
const parsed = (v: unknown): unknown => (typeof v === "string" ? JSON.parse(v) : v)

/** What resellers sell and what they booked: the org's offerings sold by the time, its reseller bookings. */
export const resellerReads = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  /** The org's offerings a reseller sells: active ones that book single times (a course books its whole series). */
  const offerings = Effect.gen(function* () {
    const org = yield* CurrentOrg
    return yield* sql<OfferingRow>`select * from offerings
      where org_id = ${org.id} and deleted_at is null and state = 'active' and not course
      order by created_at, id`.pipe(Effect.orDie)
  })

  /** An offering of the org: one it sells (`forSale`), or any, removed ones included (what a booking was made for). */
  const offering = (id: string, forSale: boolean) =>
    Effect.gen(function* () {
      const org = yield* CurrentOrg
      if (!UUID.test(id)) return Option.none()
      const [o] = yield* sql<OfferingRow & { readonly deleted_at: Date | null }>`select * from offerings
        where id = ${id}::uuid and org_id = ${org.id}
        ${forSale ? sql`and deleted_at is null and state = 'active' and not course` : sql``}`.pipe(Effect.orDie)
      return Option.fromNullable(o)
    })

  const select = (where: Statement.Fragment) =>
    sql<ResellerBooking>`select b.id, b.offering_id, b.octo_uuid as reseller_uuid, b.octo_contact as reseller_contact,
          b.octo_units as reseller_units, b.reseller_reference, b.reference, b.status, b.keeps_place, b.expires_at,
          b.starts_at, b.ends_at, b.session_id, b.quantity, b.total_cents, b.notes, b.cancel_reason, b.created_at,
          b.updated_at, b.confirmed_at, b.cancelled_at, b.checked_in_at, c.name as c_name, c.email as c_email,
          c.phone as c_phone
        from bookings b join customers c on c.id = b.customer_id
        where b.octo_uuid is not null and ${where}
        order by b.starts_at, b.id limit ${LIST_LIMIT}`.pipe(
      Effect.orDie,
      Effect.map((rows) =>
        rows.map((b) => ({
          ...b,
          reseller_contact: parsed(b.reseller_contact),
          reseller_units: parsed(b.reseller_units)
        }))
      )
    )

  /** The org's booking a reseller made under its own id `uuid`. */
  const find = (uuid: string) =>
    Effect.gen(function* () {
      const org = yield* CurrentOrg
      const [row] = yield* select(sql`b.org_id = ${org.id} and b.octo_uuid = ${uuid}`)
      return Option.fromNullable(row)
    })

  /** The org's reseller bookings the filter names, by start, at most LIST_LIMIT. */
  const list = (f: ResellerFilter) =>
    Effect.gen(function* () {
      const org = yield* CurrentOrg
      if (f.offering_id !== undefined && !UUID.test(f.offering_id)) return []
      const filters = [
        sql`b.org_id = ${org.id}`,
        ...(f.reseller_reference !== undefined ? [sql`b.reseller_reference = ${f.reseller_reference}`] : []),
        ...(f.reference !== undefined ? [sql`b.reference = ${f.reference}`] : []),
        ...(f.offering_id !== undefined ? [sql`b.offering_id = ${f.offering_id}::uuid`] : []),
        ...(f.from !== undefined ? [sql`b.starts_at >= ${new Date(utcDay(f.from) - ZONE_SLACK_MS)}`] : []),
        ...(f.to !== undefined ? [sql`b.starts_at < ${new Date(utcDay(addDays(f.to, 1)) + ZONE_SLACK_MS)}`] : [])
      ]
      return (yield* select(sql.and(filters))).filter((b) => {
        const date = toLocal(b.starts_at, f.zone).date
        return (f.from === undefined || date >= f.from) && (f.to === undefined || date <= f.to)
      })
    })

  return { offerings, offering, find, list } as const
})

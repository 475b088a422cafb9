import type { SqlError } from "@effect/sql"
import type { Customer } from "../schema/customer.ts"

export interface CustomerRow {
  readonly id: string
  readonly org_id: string
  readonly email: string | null
  readonly name: string | null
  readonly phone: string | null
  readonly created_at: Date
  readonly updated_at: Date | null
  readonly erased_at: Date | null
}

/** The resource as the API shows it and as customer.updated carries it. */
export const toCustomer = (r: CustomerRow): Customer => ({
  id: r.id,
  name: r.name,
  email: r.email,
  phone: r.phone,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at?.toISOString() ?? null,
  erased: r.erased_at !== null
})

/** Another live customer of the org already has this email (the unique index customers_org_email). */
export const isEmailTaken = (e: SqlError.SqlError) =>
  typeof e.cause === "object" && e.cause !== null && "code" in e.cause && e.cause.code === "23505"

/** ILIKE pattern for "contains", with the pattern characters of the input taken literally. */
export const containsPattern = (q: string) => `%${q.replace(/[\\%_]/g, "\\$&")}%`

/** A query that looks like a phone number also matches on digits alone ("612 34" finds "+31 6 1234 5678"). */
export const phoneDigits = (q: string) => (/^[+0-9 ().-]+$/.test(q) ? q.replace(/\D/g, "") : "")

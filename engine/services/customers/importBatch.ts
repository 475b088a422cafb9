import { Effect } from "effect"
import { truncateChars } from "../../schema/common.ts"
import { isEmail } from "../../schema/customer.ts"
import { toE164 } from "../../schema/phone.ts"
import type { customerStore } from "../../store/customers.ts"
import type { ImportRow } from "./csv.ts"

export const BATCH_SIZE = 500
export const MAX_ROWS = 10_000

interface Clean {
  readonly key: string
  readonly email: string
  name: string | null
  phone: string | null
}

/** Valid rows merged by email (first name and phone win), in email order so concurrent imports lock alike. */
export const cleanRows = (rows: ReadonlyArray<ImportRow>) => {
  const byEmail = new Map<string, Clean>()
  for (const r of rows) {
    if (!isEmail(r.email)) continue
    const key = r.email.toLowerCase()
    const name = r.name === "" ? null : truncateChars(r.name, 200)
    const phone = toE164(r.phone) ?? null
    const seen = byEmail.get(key)
    if (seen === undefined) byEmail.set(key, { key, email: r.email, name, phone })
    else {
      seen.name ??= name
      seen.phone ??= phone
    }
  }
  const valid = rows.filter((r) => isEmail(r.email)).length
  return { customers: [...byEmail.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)), valid }
}

/**
 * One batch in one statement: new emails become customers; existing ones gain only a missing name or
 * phone. created + updated + skipped = the batch's rows (a row naming an existing customer is updated).
 */
export const importBatch = (
  store: Effect.Effect.Success<typeof customerStore>,
  orgId: string,
  rows: ReadonlyArray<ImportRow>,
  at: Date
) =>
  Effect.gen(function* () {
    const { customers, valid } = cleanRows(rows)
    const skipped = rows.length - valid
    if (customers.length === 0) return { created: 0, updated: 0, skipped }
    const { created } = yield* store.importMany(orgId, customers, at)
    return { created, updated: valid - created, skipped }
  })
